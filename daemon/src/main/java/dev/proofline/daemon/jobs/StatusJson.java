package dev.proofline.daemon.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.proofline.engine.EngineStatus;

/** The engine's snapshot as JSON ({@code GET /status}, {@code GetStatus.json}): its fields in snake_case. */
public final class StatusJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    private StatusJson() {
    }

    /** Timeline events as a JSON array of {offset_ms, job, partition, kind, detail}. */
    public static String timeline(java.util.List<dev.proofline.engine.Timeline.Event> events) {
        try {
            return MAPPER.writeValueAsString(events);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("timeline not serializable", e);
        }
    }

    /** Cluster mode: the engine's snapshot with {@code node} (this node's figures) and {@code cluster} (JSON text). */
    public static String write(EngineStatus s, java.util.Map<String, Object> node, String clusterJson) {
        try {
            com.fasterxml.jackson.databind.node.ObjectNode n = MAPPER.valueToTree(s);
            n.set("node", MAPPER.valueToTree(node));
            n.set("cluster", MAPPER.readTree(clusterJson));
            return MAPPER.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("status not serializable", e);
        }
    }

    /** {"error": message}. */
    public static String error(String message) {
        return MAPPER.createObjectNode().put("error", message).toString();
    }

    public static String write(EngineStatus s) {
        try {
            return MAPPER.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("status not serializable", e);
        }
    }
}

package dev.proofline.daemon.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.engine.EngineStatus;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The engine's snapshot as JSON ({@code GET /status}, {@code GetStatus.json}): its fields in snake_case; and
 * the queue's status ({@link #cluster}), the same for both kinds of store.
 */
public final class StatusJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    /** A time in the cluster's status: UTC, with milliseconds. */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

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

    /**
     * The queue's status as JSON: {@code nodes} (each with its addresses, start, heartbeat age, load and
     * the partitions it holds), {@code partitions} (counts by state) and the {@code recent} jobs with,
     * per partition, its state, the node that holds or proved it and why it failed ({@code error}, null
     * unless it did). The dashboard and {@code proofline status} read these names; times are UTC with
     * milliseconds.
     */
    public static String cluster(ClusterStore.Status c) {
        ObjectNode o = MAPPER.createObjectNode();
        ArrayNode nodes = o.putArray("nodes");
        for (ClusterStore.StatusNode n : c.nodes()) {
            nodes.addObject().put("id", n.id()).put("grpc", n.grpc()).put("http", n.http()).put("backend", n.backend())
                    .put("started_at", TIME.format(n.startedAt())).put("heartbeat_age_ms", n.heartbeatAgeMs())
                    .put("stopped", n.stopped()).put("permits_max", n.permitsMax()).put("permits_in_use", n.permitsInUse())
                    .put("proofs", n.proofs()).put("prover_busy", n.proverBusy()).put("circuits", n.circuits())
                    .put("holding", n.holding());
        }
        ObjectNode partitions = o.putObject("partitions");
        c.partitions().forEach(partitions::put);
        ArrayNode recent = o.putArray("recent");
        for (ClusterStore.StatusJob j : c.recent()) {
            ObjectNode job = recent.addObject().put("id", j.id()).put("circuit", j.circuit()).put("state", j.state())
                    .put("error", j.error()).put("submitted_by", j.submittedBy())
                    .put("submitted_at", TIME.format(j.submittedAt()));
            ArrayNode parts = job.putArray("partitions");
            for (ClusterStore.StatusPartition p : j.partitions()) {
                parts.addObject().put("state", p.state()).put("node", p.node()).put("error", p.error());
            }
        }
        return o.toString();
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

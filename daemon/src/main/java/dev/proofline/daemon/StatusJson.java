package dev.proofline.daemon;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.proofline.engine.EngineStatus;

/** The engine's snapshot as JSON ({@code GET /status}, {@code GetStatus.json}): its fields in snake_case. */
final class StatusJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    private StatusJson() {
    }

    /** Timeline events as a JSON array of {offset_ms, job, partition, kind, detail}. */
    static String timeline(java.util.List<dev.proofline.engine.Timeline.Event> events) {
        try {
            return MAPPER.writeValueAsString(events);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("timeline not serializable", e);
        }
    }

    static String write(EngineStatus s) {
        try {
            return MAPPER.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("status not serializable", e);
        }
    }
}

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

    static String write(EngineStatus s) {
        try {
            return MAPPER.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("status not serializable", e);
        }
    }
}

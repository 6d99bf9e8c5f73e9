package dev.proofline.r1cs.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A Jackson mapper bounded by one kind of JSON input's {@link InputLimits.Json}, as configured now: kept
 * while the limits stay the same (building one costs more than reading a proof or a small input), built
 * again when a property changed them.
 */
public final class LimitedJsonMapper {

    private record Built(InputLimits.Json limits, ObjectMapper json) {
    }

    private final Supplier<InputLimits.Json> limits;
    private final UnaryOperator<JsonMapper.Builder> features;
    private volatile Built built;

    /** {@code limits}: the kind's limits as configured now; {@code features}: the rest of the mapper's setup. */
    public LimitedJsonMapper(Supplier<InputLimits.Json> limits, UnaryOperator<JsonMapper.Builder> features) {
        this.limits = limits;
        this.features = features;
    }

    /** The mapper for the limits configured now. */
    public ObjectMapper current() {
        InputLimits.Json now = limits.get();
        Built b = built;
        if (b == null || !b.limits().equals(now)) {
            b = new Built(now, features.apply(JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(now.constraints()).build())).build());
            built = b;
        }
        return b.json();
    }
}

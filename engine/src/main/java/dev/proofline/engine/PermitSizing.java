package dev.proofline.engine;

import java.util.List;
import java.util.Map;

/**
 * How the engine's prover-queue permits are sized, for the status, the metrics and the dashboard.
 *
 * @param mode {@code auto} (sized by the engine from what it measures) or {@code fixed}
 * @param limit the number of permits now
 * @param reason why it is that number (the sizer's last decision, with what it measured)
 * @param synthesisMs moving average of a synthesis thread's time per partition (NaN before any, or when fixed)
 * @param proverMs moving average of a device's prover start per partition
 * @param serviceMs moving average of the time a partition holds its permit, less its waits
 * @param littles the permits Little's law asks for: the slower stage's capacity × {@code serviceMs}
 * @param circuits the averages per circuit (a job spec's label)
 * @param deviceProverMs the prover-start average per device
 */
public record PermitSizing(String mode, int limit, String reason, double synthesisMs, double proverMs,
        double serviceMs, double littles, Map<String, CircuitTimes> circuits, List<Double> deviceProverMs) {

    /** Moving averages of one circuit's synthesis and prover start, in milliseconds. */
    public record CircuitTimes(double synthesisMs, double proverMs) {
    }

    static PermitSizing fixed(int limit) {
        return new PermitSizing("fixed", limit, "fixed by the configuration", Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Map.of(), List.of());
    }
}

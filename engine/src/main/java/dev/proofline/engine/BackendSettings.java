package dev.proofline.engine;

import java.util.List;
import java.util.Objects;

/**
 * How a backend is opened, from the engine's configuration (the daemon's {@code [engine]} section, or
 * {@link #builder()} for an application): which devices to prove on, whether B in G2 and a, b, c run
 * on the device too, which driver library to load, and how many proofs a device works on at once. A
 * backend reads what applies to it; the CPU backend reads nothing. A backend may let system properties
 * override these (the CUDA backend's {@code proofline.cuda.*}, {@code docs/cuda.md}), so that one run
 * can differ without a new file.
 *
 * @param devices the ordinals of the devices to prove on, distinct; empty: every usable one
 * @param g2OnDevice the B in G2 MSM on the device as well, where the backend can do it (else on the CPU)
 * @param abcOnDevice a = A w, b = B w and c = a b of keys proved from their coefficients (circom keys) on
 *     the device as well, the coefficients resident there (else on the CPU before the device is taken)
 * @param driverLibrary the device driver's library, a path or a name for the dynamic loader; empty: the
 *     backend's default
 * @param lanesPerDevice proofs each device works on at once, in [1, {@value #MAX_LANES}]: each lane has
 *     its own streams and working buffers and shares the device's resident keys, and the engine serves
 *     each lane as a device of its own (small proofs do not fill a large GPU; a lane's kernels run beside
 *     another's)
 */
public record BackendSettings(List<Integer> devices, boolean g2OnDevice, boolean abcOnDevice, String driverLibrary,
        int lanesPerDevice) {

    /** The most lanes a device. */
    public static final int MAX_LANES = 16;

    public BackendSettings {
        devices = List.copyOf(devices);
        Objects.requireNonNull(driverLibrary, "driverLibrary");
        if (devices.stream().anyMatch(d -> d < 0) || devices.stream().distinct().count() != devices.size()) {
            throw new IllegalArgumentException("devices " + devices + ": expected distinct ordinals, 0 or more");
        }
        if (lanesPerDevice < 1 || lanesPerDevice > MAX_LANES) {
            throw new IllegalArgumentException("lanes per device " + lanesPerDevice + ": expected 1 to " + MAX_LANES);
        }
    }

    /** Every usable device, B in G2 and a, b, c on the device, the default driver, one lane a device. */
    public static BackendSettings defaults() {
        return new BackendSettings(List.of(), true, true, "", 1);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds settings from the defaults, one knob at a time. */
    public static final class Builder {
        private List<Integer> devices = List.of();
        private boolean g2OnDevice = true;
        private boolean abcOnDevice = true;
        private String driverLibrary = "";
        private int lanesPerDevice = 1;

        private Builder() {
        }

        /** The devices to prove on, by ordinal (none: every usable one). */
        public Builder devices(List<Integer> ordinals) {
            this.devices = List.copyOf(ordinals);
            return this;
        }

        /** As {@link #devices(List)}. */
        public Builder devices(Integer... ordinals) {
            return devices(List.of(ordinals));
        }

        public Builder g2OnDevice(boolean on) {
            this.g2OnDevice = on;
            return this;
        }

        public Builder abcOnDevice(boolean on) {
            this.abcOnDevice = on;
            return this;
        }

        /** The driver library (empty: the backend's default). */
        public Builder driverLibrary(String library) {
            this.driverLibrary = Objects.requireNonNull(library, "library");
            return this;
        }

        /** Proofs each device works on at once, 1 to {@value BackendSettings#MAX_LANES}. */
        public Builder lanesPerDevice(int lanes) {
            this.lanesPerDevice = lanes;
            return this;
        }

        public BackendSettings build() {
            return new BackendSettings(devices, g2OnDevice, abcOnDevice, driverLibrary, lanesPerDevice);
        }
    }
}

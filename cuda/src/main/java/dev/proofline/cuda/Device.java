package dev.proofline.cuda;

/**
 * One CUDA device and the properties read when it was listed.
 *
 * @param ordinal its index among the driver's devices
 * @param handle its {@code CUdevice}
 * @param totalMemory device memory in bytes
 * @param multiprocessors streaming multiprocessors (SMs)
 */
public record Device(CudaDriver driver, int ordinal, int handle, String name, long totalMemory, int computeMajor,
        int computeMinor, int multiprocessors) {

    static Device open(CudaDriver driver, int ordinal) {
        int handle = driver.device(ordinal);
        return new Device(driver, ordinal, handle, driver.deviceName(handle), driver.deviceTotalMemory(handle),
                driver.deviceAttribute(CudaDriver.ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, handle),
                driver.deviceAttribute(CudaDriver.ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, handle),
                driver.deviceAttribute(CudaDriver.ATTRIBUTE_MULTIPROCESSOR_COUNT, handle));
    }

    /** Compute capability as {@code major.minor}, e.g. {@code 9.0}. */
    public String computeCapability() {
        return computeMajor + "." + computeMinor;
    }

    /** Any {@code cuDeviceGetAttribute} value of this device. */
    public int attribute(int attribute) {
        return driver.deviceAttribute(attribute, handle);
    }

    /** Retains the device's primary context; closing the context releases it. */
    public Context retainPrimaryContext() {
        return new Context(this, driver.primaryContextRetain(handle));
    }

    @Override
    public String toString() {
        return "cuda:" + ordinal + " " + name;
    }
}

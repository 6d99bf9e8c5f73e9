package dev.proofline.engine.groth16;

/** The contract on the CPU backend. */
class CpuDeviceContractTest extends DeviceBackendContract {

    @Override
    protected DeviceBackend<?> open() {
        return new CpuDevice();
    }
}

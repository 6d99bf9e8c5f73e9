package dev.proofline.engine.groth16;

/** The contract on the batching test double. */
class BatchingTestBackendContractTest extends DeviceBackendContract {

    @Override
    protected DeviceBackend<?> open() {
        return new BatchingTestBackend();
    }
}

package dev.proofline.daemon.transport.http;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proofline.algebra.testing.ReaderContract;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.daemon.transport.grpc.SubmitRequestFuzzTest;
import dev.proofline.engine.groth16.CircuitJob;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;

/**
 * A JSON API submission ({@code POST /v1/jobs}) from any bytes, decoded as {@link JsonApi} does and then
 * checked as the service does before a job exists (each partition against a multiplier key, as
 * {@link SubmitRequestFuzzTest}). Either the partitions the engine would take, or a fault of the request
 * (INVALID_ARGUMENT, as an {@link IllegalArgumentException}); anything else is a finding. Seeds:
 * JsonSubmitFuzzTestInputs/submit.
 */
class JsonSubmitFuzzTest {

    @FuzzTest
    void submit(byte[] bytes) {
        ReaderContract.returnsOrRejects(() -> decode(bytes), IllegalArgumentException.class);
    }

    static List<CircuitJob.Partition> decode(byte[] bytes) {
        try {
            SubmitProofRequest req = JsonApi.submitRequest(bytes);
            return SubmitRequestFuzzTest.decode(req.toByteArray());
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() != Status.Code.INVALID_ARGUMENT) {
                throw e;
            }
            throw new IllegalArgumentException(e.getStatus().getDescription());
        }
    }
}

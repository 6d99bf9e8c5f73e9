package dev.proofline.daemon.transport.grpc;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.proofline.algebra.testing.ReaderContract;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ZkeyFile;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A gRPC submission from any bytes, decoded and checked as the service does before a job exists: the
 * protobuf message, then each partition against a circuit's key (a snarkjs multiplier key on bn128,
 * with a witness generator registered so that input JSON is parsed too). Either the partitions the
 * engine would take, or a fault of the request (an {@link IllegalArgumentException}; the service's
 * INVALID_ARGUMENT); anything else is a finding. Seeds: SubmitRequestFuzzTestInputs/submit.
 */
public class SubmitRequestFuzzTest {

    private static final ProvingKey KEY;
    private static final Circuits.Registered CIRCUIT;

    static {
        try (InputStream in = SubmitRequestFuzzTest.class.getResourceAsStream(
                "/dev/proofline/groth16/io/ZkeyFuzzTestInputs/zkey/bn128-multiplier.zkey")) {
            Path zkey = Files.createTempFile("fuzz-multiplier", ".zkey");
            zkey.toFile().deleteOnExit();
            Files.copy(in, zkey, StandardCopyOption.REPLACE_EXISTING);
            KEY = ZkeyFile.open(zkey);
            // the witness generator is never run here: its path only says that the circuit has one
            CIRCUIT = new Circuits.Circom("mul", zkey, Path.of("circuit.wasm"), null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest
    void submit(byte[] bytes) {
        ReaderContract.returnsOrRejects(() -> decode(bytes), IllegalArgumentException.class);
    }

    /** The request's partitions as the engine would take them; a fault of the request throws. */
    public static List<CircuitJob.Partition> decode(byte[] bytes) {
        SubmitProofRequest req;
        try {
            req = SubmitProofRequest.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException("not a SubmitProofRequest: " + e.getMessage());
        }
        List<CircuitJob.Partition> parts = new ArrayList<>();
        for (int p = 0; p < req.getPartitionsCount(); p++) {
            try {
                parts.add(SubmitRequests.partition(CIRCUIT, KEY, req.getPartitions(p), p));
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() != Status.Code.INVALID_ARGUMENT) {
                    throw e;
                }
                throw new IllegalArgumentException(e.getStatus().getDescription());
            }
        }
        return parts;
    }
}

package dev.proofline.api;

import com.google.protobuf.ByteString;
import dev.proofline.api.v1.PartitionChunk;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofChunk;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A submission through {@code SubmitProofStream}: the header, then each file in chunks, read from disk as
 * they are sent. The sender waits while the transport is not ready, so a witness of any size costs the
 * client a chunk of memory, and the daemon's per-message limit does not apply to it.
 */
final class StreamedSubmission {

    private StreamedSubmission() {
    }

    /**
     * Sends {@code header} (which announces {@code files.size()} streamed partitions of one kind) and the
     * files, {@code chunkBytes} per message; returns the daemon's answer, or throws its status as an {@link ExecutionException}'s cause.
     */
    static SubmitProofResponse send(ProvingEngineGrpc.ProvingEngineStub stub, SubmitProofRequest header,
            List<Path> files, int chunkBytes) throws IOException, InterruptedException, ExecutionException {
        CompletableFuture<SubmitProofResponse> answer = new CompletableFuture<>();
        Object ready = new Object();
        ClientResponseObserver<SubmitProofChunk, SubmitProofResponse> in = new ClientResponseObserver<>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<SubmitProofChunk> up) {
                up.setOnReadyHandler(() -> wake(ready));
            }

            @Override
            public void onNext(SubmitProofResponse v) {
                answer.complete(v);
            }

            @Override
            public void onError(Throwable t) {
                answer.completeExceptionally(t);
                wake(ready);
            }

            @Override
            public void onCompleted() {
                answer.completeExceptionally(new IllegalStateException("the daemon closed the stream without an answer"));
            }
        };
        ClientCallStreamObserver<SubmitProofChunk> up = (ClientCallStreamObserver<SubmitProofChunk>) stub
                .submitProofStream(in);
        up.onNext(SubmitProofChunk.newBuilder().setHeader(header).build());
        byte[] buf = new byte[chunkBytes];
        for (int p = 0; p < files.size() && !answer.isDone(); p++) {
            try (InputStream file = Files.newInputStream(files.get(p))) {
                for (int n; !answer.isDone() && (n = file.readNBytes(buf, 0, buf.length)) > 0; ) {
                    awaitReady(up, answer, ready);
                    up.onNext(SubmitProofChunk.newBuilder().setChunk(PartitionChunk.newBuilder().setPartition(p)
                            .setData(ByteString.copyFrom(buf, 0, n))).build());
                }
            } catch (IOException | RuntimeException e) {
                up.cancel("the client could not read " + files.get(p), e);
                throw e;
            }
        }
        if (!answer.isDone()) {
            up.onCompleted();
        }
        return answer.get();
    }

    /** Waits until the transport takes more, or the daemon has answered (an early error). */
    private static void awaitReady(ClientCallStreamObserver<SubmitProofChunk> up,
            CompletableFuture<SubmitProofResponse> answer, Object ready) throws InterruptedException {
        synchronized (ready) {
            while (!up.isReady() && !answer.isDone()) {
                ready.wait(100);
            }
        }
    }

    private static void wake(Object ready) {
        synchronized (ready) {
            ready.notifyAll();
        }
    }
}

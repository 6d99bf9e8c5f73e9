package dev.proofline.daemon;

import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;

/** The tests' observer of a call with one answer: it completes a future with the answer, or with the error. */
public final class OneAnswer {

    private OneAnswer() {
    }

    public static <T> StreamObserver<T> into(CompletableFuture<T> f) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T v) {
                f.complete(v);
            }

            @Override
            public void onError(Throwable t) {
                f.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
            }
        };
    }
}

package dev.proofline.daemon.transport.grpc;

import dev.proofline.daemon.transport.RequestBudget;
import io.grpc.Context;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;
import java.util.HashSet;
import java.util.Set;

/**
 * A gRPC call's request bytes, taken from the {@link RequestBudget} that HTTP submissions share, as they
 * arrive, each at what it costs until the call's messages are decoded: gRPC reads a message whole before
 * the service sees it (a unary submission of 60 MB is 60 MB held before anything is checked), so the
 * count happens underneath, in a stream tracer that gRPC tells of each read of a message's bytes off the
 * connection. When the next bytes find no room the call ends with RESOURCE_EXHAUSTED there and then
 * (what it held is given back; the rest of its message is not read), and other calls go on. What a call took is given back once the service has handled its last
 * message (a unary call's method returned, a stream's end handled: the bytes are then in the engine or
 * the store, or dropped), or when the call ends, whichever is first.
 */
public final class GrpcRequestBytes {

    private static final Context.Key<Taken> TAKEN = Context.key("proofline-request-bytes");

    private final RequestBudget budget;
    /** Full names of the methods whose requests are streamed; the others' messages come whole. */
    private final Set<String> streamed;

    /**
     * {@code streamed}: the full names of the methods whose client streams its request
     * ({@link #streamedMethods}); each byte of theirs costs {@link RequestBudget#STREAMED_COPIES}, of the
     * others {@link RequestBudget#UNARY_COPIES}.
     */
    public GrpcRequestBytes(RequestBudget budget, Set<String> streamed) {
        this.budget = budget;
        this.streamed = Set.copyOf(streamed);
    }

    /** The full names of {@code service}'s methods whose client sends a stream of messages. */
    public static Set<String> streamedMethods(ServerServiceDefinition service) {
        Set<String> names = new HashSet<>();
        for (ServerMethodDefinition<?, ?> m : service.getMethods()) {
            if (!m.getMethodDescriptor().getType().clientSendsOneMessage()) {
                names.add(m.getMethodDescriptor().getFullMethodName());
            }
        }
        return names;
    }

    /** Makes each call's tracer, which takes the bytes as they arrive. */
    public ServerStreamTracer.Factory tracers() {
        return new ServerStreamTracer.Factory() {
            @Override
            public ServerStreamTracer newServerStreamTracer(String method, Metadata headers) {
                return new Taken(streamed.contains(method) ? RequestBudget.STREAMED_COPIES : RequestBudget.UNARY_COPIES);
            }
        };
    }

    /** Gives a call's bytes back once the service has handled its last message; outermost of the interceptors. */
    public ServerInterceptor giveBackWhenHandled() {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                    ServerCallHandler<Q, R> next) {
                Taken taken = TAKEN.get();
                ServerCall.Listener<Q> listener = next.startCall(call, headers);
                if (taken == null) {
                    return listener;
                }
                return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
                    @Override
                    public void onHalfClose() {
                        try {
                            super.onHalfClose();
                        } finally {
                            taken.giveBack();
                        }
                    }

                    @Override
                    public void onCancel() {
                        taken.giveBack();
                        super.onCancel();
                    }

                    @Override
                    public void onComplete() {
                        taken.giveBack();
                        super.onComplete();
                    }
                };
            }
        };
    }

    /** One call's bytes; gRPC calls {@link #inboundWireSize} on the connection's thread as bytes are read. */
    private final class Taken extends ServerStreamTracer {
        /** What each byte received costs while it is decoded. */
        private final int copies;
        private long held;
        private boolean done;

        Taken(int copies) {
            this.copies = copies;
        }

        @Override
        public Context filterContext(Context context) {
            return context.withValue(TAKEN, this);
        }

        @Override
        public void inboundWireSize(long bytes) {
            long cost = bytes * copies;
            boolean taken;
            long wanted;
            synchronized (this) {
                taken = done || budget.tryTake(cost);
                wanted = held + cost;
                if (taken && !done) {
                    held += cost;
                }
            }
            if (!taken) {
                giveBack();
                // gRPC ends the call with this status, as it does a message over max_message_bytes
                throw Status.RESOURCE_EXHAUSTED.withDescription(wanted > budget.bound()
                        ? "this request needs more than the " + budget.bound() + " bytes of engine.request_memory"
                                + " (each byte received costs " + copies + " while it is decoded); send less at once"
                        : "busy: requests being decoded need more than " + budget.bound() + " bytes"
                                + " (engine.request_memory, both ports together); try again shortly")
                        .asRuntimeException();
            }
        }

        @Override
        public void streamClosed(Status status) {
            giveBack();
        }

        synchronized void giveBack() {
            done = true;
            budget.giveBack(held);
            held = 0;
        }
    }
}

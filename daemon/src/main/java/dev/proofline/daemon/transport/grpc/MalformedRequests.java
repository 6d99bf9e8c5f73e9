package dev.proofline.daemon.transport.grpc;

import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.InputStream;

/**
 * A request whose bytes are not a protobuf message of its method's type is INVALID_ARGUMENT, said in
 * one line. gRPC parses a request before the service sees it; a parse that fails there ends the call
 * with UNKNOWN ("Application error processing RPC") and logs the exception with its stack trace, about
 * 2.4 KB per request, which anyone who can reach the port could repeat to fill the log. Here the
 * service's methods take the message's bytes as they arrived ({@link
 * ServerInterceptors#useMarshalledMessages}: the same stream, parsed as before, no copy) and the parse
 * happens inside a listener that can answer its failure.
 */
public final class MalformedRequests implements ServerInterceptor {

    /** The message's bytes as the transport gives them: parsed by the service's own marshaller afterwards. */
    private static final MethodDescriptor.Marshaller<InputStream> AS_RECEIVED = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(InputStream value) {
            return value;
        }

        @Override
        public InputStream parse(InputStream stream) {
            return stream;
        }
    };

    private MalformedRequests() {
    }

    /** {@code service} with malformed requests answered INVALID_ARGUMENT. */
    public static ServerServiceDefinition guard(ServerServiceDefinition service) {
        return ServerInterceptors.intercept(ServerInterceptors.useMarshalledMessages(service, AS_RECEIVED),
                new MalformedRequests());
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
            ServerCallHandler<Q, R> next) {
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
            private boolean refused;

            @Override
            public void onMessage(Q message) {
                if (refused) {
                    return;
                }
                try {
                    super.onMessage(message);
                } catch (StatusRuntimeException e) {
                    if (!(e.getCause() instanceof InvalidProtocolBufferException bad)) {
                        throw e;
                    }
                    refused = true;
                    call.close(Status.INVALID_ARGUMENT.withDescription("the request is not a "
                            + call.getMethodDescriptor().getBareMethodName() + " message: " + bad.getMessage()),
                            new Metadata());
                }
            }

            @Override
            public void onHalfClose() {
                if (!refused) {
                    super.onHalfClose();
                }
            }
        };
    }
}

package dev.proofline.daemon.transport.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.proofline.api.v1.AwaitProofRequest;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.CancelProofRequest;
import dev.proofline.api.v1.CancelProofResponse;
import dev.proofline.api.v1.CircuitInfo;
import dev.proofline.api.v1.ListCircuitsRequest;
import dev.proofline.api.v1.ListCircuitsResponse;
import dev.proofline.api.v1.PartitionResult;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import dev.proofline.api.v1.Timings;
import dev.proofline.daemon.transport.grpc.FailureStatus;
import dev.proofline.daemon.transport.grpc.ProvingService;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * The HTTP JSON API under {@code /v1/}: a JSON face on {@link ProvingService}. Each route turns its JSON
 * into the gRPC request and calls the service's own method, so submissions are checked by the same code
 * and failures carry the same status codes and messages; a failure is answered as
 * {@code {"error": {"code", "message"}}} with the HTTP status of {@link #httpStatus}.
 */
public final class JsonApi {

    static final String PREFIX = "/v1/";
    static final String JOBS = "/v1/jobs";
    /**
     * Strict where a lenient reader would take something other than what the client meant: a duplicate
     * key (which value?) and content after the object are refused, as the command line's readers refuse
     * them. A string may be as long as the body: a witness in base64 is about 4/3 of its bytes, and the
     * body is bounded by {@code http.max_job_bytes} before it is read (Jackson's own default, 20 million
     * characters, refused witnesses over about 15 MB).
     */
    private static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private final ProvingService service;

    public JsonApi(ProvingService service) {
        this.service = service;
    }

    /** Whether the request may carry a job's witnesses, and so gets the larger body limit. */
    static boolean takesJob(String method, String path) {
        return method.equals("POST") && path.equals(JOBS);
    }

    /**
     * The one table from a gRPC status code to an HTTP status. CANCELLED and DEADLINE_EXCEEDED describe a
     * job that ended without proofs (the request itself was fine): 409. RESOURCE_EXHAUSTED is a limit
     * (partitions per job, room in the memory budget): 429, retry later or send less; a body past
     * {@code http.max_job_bytes} is 413 before it reaches the service. FAILED_PRECONDITION is a circuit
     * whose files the server cannot load: the server's problem, 500. (A method that a route does not take
     * is answered 405 with UNIMPLEMENTED, by the route itself.)
     */
    static int httpStatus(Status.Code code) {
        return switch (code) {
            case INVALID_ARGUMENT, OUT_OF_RANGE -> 400;
            case UNAUTHENTICATED -> 401;
            case PERMISSION_DENIED -> 403;
            case NOT_FOUND -> 404;
            case ALREADY_EXISTS, ABORTED, CANCELLED, DEADLINE_EXCEEDED -> 409;
            case RESOURCE_EXHAUSTED -> 429;
            case UNIMPLEMENTED -> 501;
            case UNAVAILABLE -> 503;
            default -> 500;
        };
    }

    /** A JSON error answer with the given HTTP status. */
    static HttpRoutes.Answer error(int httpStatus, Status.Code code, String message) {
        ObjectNode e = JSON.createObjectNode();
        e.putObject("error").put("code", code.name()).put("message", message);
        return new HttpRoutes.Answer(httpStatus, "application/json", bytes(e));
    }

    /** The answer to a request under {@code /v1/} (authorized already). */
    HttpRoutes.Answer answer(String method, String path, String rawQuery, byte[] body) {
        return answerLater(method, path, rawQuery, body).join();
    }

    /**
     * The answer to a request under {@code /v1/} (authorized already): done on return, except a
     * {@code GET /v1/jobs/{id}?wait_ms=} on a running job, which completes when the job ends or the wait
     * passes, without a thread waiting for it (as gRPC's AwaitProof).
     */
    CompletableFuture<HttpRoutes.Answer> answerLater(String method, String path, String rawQuery, byte[] body) {
        try {
            if (path.equals(JOBS)) {
                return done(method.equals("POST") ? submit(body) : notAllowed(method, path));
            }
            if (path.startsWith(JOBS + "/") && path.length() > JOBS.length() + 1) {
                String id = path.substring(JOBS.length() + 1);
                return switch (method) {
                    case "GET" -> job(id, waitMs(rawQuery));
                    case "DELETE" -> done(cancel(id));
                    default -> done(notAllowed(method, path));
                };
            }
            return done(switch (path) {
                case "/v1/circuits" -> method.equals("GET") ? circuits() : notAllowed(method, path);
                case "/v1/openapi.json" -> method.equals("GET") ? openapi() : notAllowed(method, path);
                default -> error(404, Status.Code.NOT_FOUND, "no route " + clip(path));
            });
        } catch (RuntimeException e) {
            return done(error(e));
        }
    }

    private static CompletableFuture<HttpRoutes.Answer> done(HttpRoutes.Answer a) {
        return CompletableFuture.completedFuture(a);
    }

    /** A failure as its JSON answer: the status it carries, or the one the service would give it. */
    private static HttpRoutes.Answer error(Throwable t) {
        if (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return error(FailureStatus.of(t).getStatus());
    }

    private static HttpRoutes.Answer error(Status s) {
        return error(httpStatus(s.getCode()), s.getCode(), s.getDescription() == null ? s.getCode().name()
                : s.getDescription());
    }

    private static HttpRoutes.Answer notAllowed(String method, String path) {
        return error(405, Status.Code.UNIMPLEMENTED, clip(method) + " is not a method of " + clip(path));
    }

    // ------------------------------------------------------------------ routes

    private HttpRoutes.Answer submit(byte[] body) {
        SubmitProofRequest req = submitRequest(body);
        SubmitProofResponse r = call(o -> service.submitProof(req, o));
        ObjectNode out = JSON.createObjectNode().put("job_id", r.getJobId())
                .put("queue_position", r.getQueuePosition()).put("existing", r.getExisting());
        return new HttpRoutes.Answer(r.getExisting() ? 200 : 201, "application/json", bytes(out));
    }

    private CompletableFuture<HttpRoutes.Answer> job(String id, long waitMs) {
        AwaitProofRequest req = AwaitProofRequest.newBuilder().setJobId(id).setTimeoutMs(waitMs).build();
        return JsonApi.<AwaitProofResponse>later(o -> service.awaitProof(req, o)).thenApply(JsonApi::job)
                .exceptionally(JsonApi::error);
    }

    private static HttpRoutes.Answer job(AwaitProofResponse r) {
        ObjectNode out = JSON.createObjectNode().put("job_id", r.getJobId()).put("state", r.getState().name());
        if (!r.getError().isEmpty()) {
            out.put("error", r.getError());
        }
        ArrayNode parts = out.putArray("partitions");
        for (PartitionResult p : r.getPartitionsList()) {
            ObjectNode n = parts.addObject().put("partition", p.getPartition()).put("state", p.getState());
            if (!p.getNode().isEmpty()) {
                n.put("node", p.getNode());
            }
            if (p.hasTimings()) {
                Timings t = p.getTimings();
                n.putObject("timings").put("queue_wait_ms", t.getQueueWaitMs()).put("synthesis_ms", t.getSynthesisMs())
                        .put("prover_wait_ms", t.getProverWaitMs()).put("prover_ms", t.getProverMs())
                        .put("finalize_ms", t.getFinalizeMs()).put("total_ms", t.getTotalMs());
            }
            if (!p.getProofJson().isEmpty()) {
                try {
                    n.set("proof", JSON.readTree(p.getProofJson()));
                } catch (JacksonException e) {
                    throw new IllegalStateException("a proof that is not JSON", e);
                }
                ArrayNode signals = n.putArray("public_signals");
                p.getPublicSignalsList().forEach(signals::add);
            }
        }
        if (r.getRefusalsCount() > 0) {
            ArrayNode refusals = out.putArray("refusals");
            r.getRefusalsList().forEach(refusals::add);
        }
        return new HttpRoutes.Answer(200, "application/json", bytes(out));
    }

    private HttpRoutes.Answer cancel(String id) {
        CancelProofResponse r = call(o -> service.cancelProof(CancelProofRequest.newBuilder().setJobId(id).build(), o));
        return new HttpRoutes.Answer(200, "application/json",
                bytes(JSON.createObjectNode().put("job_id", id).put("state", r.getState().name())));
    }

    private HttpRoutes.Answer circuits() {
        ListCircuitsResponse r = call(o -> service.listCircuits(ListCircuitsRequest.getDefaultInstance(), o));
        ObjectNode out = JSON.createObjectNode();
        ArrayNode list = out.putArray("circuits");
        for (CircuitInfo c : r.getCircuitsList()) {
            ObjectNode n = list.addObject().put("id", c.getId()).put("kind", c.getKind())
                    .put("has_wasm", c.getHasWasm()).put("has_r1cs", c.getHasR1Cs());
            if (!c.getCurve().isEmpty()) {
                n.put("curve", c.getCurve());
            }
        }
        return new HttpRoutes.Answer(200, "application/json", bytes(out));
    }

    private static HttpRoutes.Answer openapi() {
        try (InputStream in = JsonApi.class.getResourceAsStream("/dev/proofline/daemon/openapi.json")) {
            if (in == null) {
                throw new IllegalStateException("openapi.json is missing from the daemon's jar");
            }
            return new HttpRoutes.Answer(200, "application/json", in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ JSON to the service's requests

    /** A submission's JSON as the gRPC request; what the service checks (circuit, witnesses) is left to it. */
    public static SubmitProofRequest submitRequest(byte[] body) {
        return JsonSubmission.read(JSON, body);
    }

    /** {@code wait_ms} of the query (0 when absent); the service bounds it by {@code limits.max_await}. */
    static long waitMs(String rawQuery) {
        if (rawQuery != null) {
            for (String p : rawQuery.split("&")) {
                if (p.startsWith("wait_ms=")) {
                    try {
                        long v = Long.parseLong(p.substring("wait_ms=".length()));
                        if (v >= 0) {
                            return v;
                        }
                    } catch (NumberFormatException e) {
                        // answered below
                    }
                    throw invalid("wait_ms must be a whole number of milliseconds, at least 0");
                }
            }
        }
        return 0;
    }

    /**
     * A client's string as a message quotes it: its start only, so that a message stays short whatever
     * was sent (found by JsonSubmitFuzzTest: a field name of 2,000 characters came back whole).
     */
    static String clip(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "… (" + s.length() + " characters)";
    }

    private static StatusRuntimeException invalid(String message) {
        return Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException();
    }

    /** Calls one of the service's methods and takes its one answer, or throws its status. */
    static <T> T call(Consumer<StreamObserver<T>> rpc) {
        try {
            return later(rpc).get();
        } catch (ExecutionException e) {
            throw FailureStatus.of(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Status.UNAVAILABLE.withDescription("interrupted: the daemon is shutting down").asRuntimeException();
        }
    }

    /** Calls one of the service's methods: its one answer, or its status, when it comes. */
    static <T> CompletableFuture<T> later(Consumer<StreamObserver<T>> rpc) {
        CompletableFuture<T> f = new CompletableFuture<>();
        rpc.accept(new StreamObserver<>() {
            @Override
            public void onNext(T value) {
                f.complete(value);
            }

            @Override
            public void onError(Throwable t) {
                f.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
            }
        });
        return f;
    }

    private static byte[] bytes(JsonNode n) {
        return n.toString().getBytes(StandardCharsets.UTF_8);
    }
}

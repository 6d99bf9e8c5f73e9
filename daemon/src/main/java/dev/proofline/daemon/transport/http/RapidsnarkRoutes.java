package dev.proofline.daemon.transport.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.proofline.api.v1.AwaitProofRequest;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.CancelProofRequest;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionResult;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import dev.proofline.daemon.transport.BearerTokens;
import dev.proofline.daemon.transport.grpc.FailureStatus;
import dev.proofline.daemon.transport.grpc.ProvingService;
import io.grpc.Status;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * rapidsnark's prover-server routes, on a listener of their own ({@code server.rapidsnark_listen}), so
 * that programs written for rapidsnark's {@code proverServer} need no change:
 *
 * <ul>
 * <li>{@code POST /input/<circuit>}: the body is the circuit's input signals (JSON); starts a proof of
 * the circuit whose folder in the keys directory is {@code <circuit>} (rapidsnark names a circuit by its
 * zkey's file name). Answered 200 with {@code {"job_id"}}; a refused submission is answered with the
 * status of the JSON API ({@link JsonApi#httpStatus}) and {@code {"error"}}, and is also what
 * {@code GET /status} reports next, as {@code failed}.
 * <li>{@code GET /status}: the latest submission's state as rapidsnark writes it: {@code {"status":
 * "ready"}} before any, {@code "busy"}, {@code "success"} with {@code proof} and {@code pubData} (each a
 * JSON document in a string), {@code "failed"} with {@code error}, {@code "aborted"}.
 * <li>{@code POST /cancel}: cancels the latest submission if it is still running; answers its state.
 * <li>{@code POST /start}, {@code POST /stop}: accepted and ignored, as rapidsnark does.
 * </ul>
 *
 * Unlike rapidsnark's server, which proves one input at a time and aborts the running proof when another
 * input arrives, every submission is a job of its own in the engine: a second one does not abort the
 * first, and each can be read by its id ({@code GET /status/<job_id>}, {@code ?wait_ms=} to wait for its
 * end) and cancelled by it ({@code POST /cancel/<job_id>}), so concurrent clients each get their own proof.
 */
public final class RapidsnarkRoutes implements HttpSite {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INPUT = "/input/";
    private static final String STATUS = "/status";
    private static final String CANCEL = "/cancel";

    /** The latest {@code POST /input}: none yet, a job, or a submission that was refused. */
    private sealed interface Latest {
    }

    private record NoneYet() implements Latest {
    }

    /** {@code ended}: the job's last answer once it has ended (it no longer changes), else null. */
    private record Submitted(String jobId, HttpRoutes.Answer ended) implements Latest {
    }

    private record Refused(String error) implements Latest {
    }

    private final String token;
    private final ProvingService service;
    private final AtomicReference<Latest> latest = new AtomicReference<>(new NoneYet());

    /** {@code token} empty: no authentication. */
    public RapidsnarkRoutes(String token, ProvingService service) {
        this.token = token;
        this.service = service;
    }

    @Override
    public boolean takesJob(String method, String target) {
        return method.equals("POST") && target.startsWith(INPUT);
    }

    @Override
    public boolean isHealthCheck(String target) {
        return false;
    }

    @Override
    public HttpRoutes.Answer refusal(String target, int status, Status.Code code, String why) {
        return error(status, why);
    }

    @Override
    public CompletableFuture<HttpRoutes.Answer> answerLater(String method, String target, String authorization,
            byte[] body) {
        URI uri;
        try {
            uri = new URI(target);
        } catch (URISyntaxException e) {
            return done(error(400, "bad request target"));
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        if (!token.isEmpty() && !authorized(authorization, uri.getRawQuery())) {
            return done(error(401, "unauthorized: send Authorization: Bearer <token>"));
        }
        try {
            if (path.startsWith(INPUT) && path.length() > INPUT.length()) {
                return done(method.equals("POST") ? input(path.substring(INPUT.length()), body) : notAllowed(method));
            }
            if (path.equals(STATUS)) {
                return method.equals("GET") ? latestStatus() : done(notAllowed(method));
            }
            if (path.startsWith(STATUS + "/") && path.length() > STATUS.length() + 1) {
                return method.equals("GET")
                        ? status(path.substring(STATUS.length() + 1), JsonApi.waitMs(uri.getRawQuery()))
                        : done(notAllowed(method));
            }
            if (path.equals(CANCEL)) {
                return method.equals("POST") ? cancelLatest() : done(notAllowed(method));
            }
            if (path.startsWith(CANCEL + "/") && path.length() > CANCEL.length() + 1) {
                return method.equals("POST") ? cancel(path.substring(CANCEL.length() + 1)) : done(notAllowed(method));
            }
            if (path.equals("/start") || path.equals("/stop")) {
                // rapidsnark's server accepts both and does nothing; its provers are always started
                return done(method.equals("POST") ? new HttpRoutes.Answer(200, "text/plain", new byte[0])
                        : notAllowed(method));
            }
            return done(error(404, "no route " + JsonApi.clip(path)));
        } catch (RuntimeException e) {
            Status s = FailureStatus.of(e).getStatus();
            return done(error(JsonApi.httpStatus(s.getCode()), description(s)));
        }
    }

    // ------------------------------------------------------------------ routes

    /** Submits one partition of circom inputs; the submission, or its refusal, becomes the latest. */
    private HttpRoutes.Answer input(String circuit, byte[] body) {
        SubmitProofRequest req = SubmitProofRequest.newBuilder().setCircuitId(circuit)
                .addPartitions(Partition.newBuilder().setInputJson(new String(body, StandardCharsets.UTF_8)))
                .build();
        try {
            if (body.length == 0) {
                throw Status.INVALID_ARGUMENT.withDescription("the body must be the circuit's input signals, a JSON"
                        + " object").asRuntimeException();
            }
            SubmitProofResponse r = JsonApi.call(o -> service.submitProof(req, o));
            latest.set(new Submitted(r.getJobId(), null));
            return json(200, JSON.createObjectNode().put("job_id", r.getJobId()));
        } catch (RuntimeException e) {
            Status s = FailureStatus.of(e).getStatus();
            latest.set(new Refused(description(s)));
            return error(JsonApi.httpStatus(s.getCode()), description(s));
        }
    }

    /** {@code GET /status}: the latest submission, as rapidsnark reports its one job; always 200. */
    private CompletableFuture<HttpRoutes.Answer> latestStatus() {
        Latest now = latest.get();
        return switch (now) {
            case NoneYet n -> done(json(200, JSON.createObjectNode().put("status", "ready")));
            case Refused r -> done(json(200, failed(r.error())));
            case Submitted s when s.ended() != null -> done(s.ended());
            case Submitted s -> state(s.jobId(), 0).thenApply(st -> {
                HttpRoutes.Answer a = json(200, st.body());
                if (st.ended()) {
                    // kept: the job's record may pass engine.result_retention, its last answer does not change
                    latest.compareAndSet(now, new Submitted(s.jobId(), a));
                }
                return a;
            });
        };
    }

    /** {@code GET /status/<job_id>}: that job's state in the same shape; 404 for a job unknown. */
    private CompletableFuture<HttpRoutes.Answer> status(String jobId, long waitMs) {
        return state(jobId, waitMs).thenApply(st -> st.unknown() ? error(404, st.body().get("error").asText())
                : json(200, st.body()));
    }

    private CompletableFuture<HttpRoutes.Answer> cancelLatest() {
        return latest.get() instanceof Submitted s ? cancel(s.jobId()) : latestStatus();
    }

    /** Cancels a job that is still running (one that has ended keeps its result); answers its state. */
    private CompletableFuture<HttpRoutes.Answer> cancel(String jobId) {
        try {
            JsonApi.<dev.proofline.api.v1.CancelProofResponse>call(o -> service.cancelProof(
                    CancelProofRequest.newBuilder().setJobId(jobId).build(), o));
        } catch (RuntimeException e) {
            Status s = FailureStatus.of(e).getStatus();
            return done(error(JsonApi.httpStatus(s.getCode()), description(s)));
        }
        return latest.get() instanceof Submitted s && s.jobId().equals(jobId) ? latestStatus() : status(jobId, 0);
    }

    // ------------------------------------------------------------------ a job's state in rapidsnark's shape

    /** A job's state as rapidsnark's status object; {@code ended}: it will not change; {@code unknown}: no such job. */
    private record State(ObjectNode body, boolean ended, boolean unknown) {
    }

    private CompletableFuture<State> state(String jobId, long waitMs) {
        AwaitProofRequest req = AwaitProofRequest.newBuilder().setJobId(jobId).setTimeoutMs(waitMs).build();
        return JsonApi.<AwaitProofResponse>later(o -> service.awaitProof(req, o))
                .thenApply(RapidsnarkRoutes::state)
                .exceptionally(t -> {
                    Status s = FailureStatus.of(t instanceof java.util.concurrent.CompletionException c
                            && c.getCause() != null ? c.getCause() : t).getStatus();
                    return switch (s.getCode()) {
                        case CANCELLED -> new State(JSON.createObjectNode().put("status", "aborted"), true, false);
                        case NOT_FOUND -> new State(failed(description(s)), false, true);
                        case UNAVAILABLE, INTERNAL, UNKNOWN -> new State(failed(description(s)), false, false);
                        default -> new State(failed(description(s)), true, false);
                    };
                });
    }

    private static State state(AwaitProofResponse r) {
        return switch (r.getState()) {
            case RUNNING -> new State(JSON.createObjectNode().put("status", "busy"), false, false);
            case DONE -> new State(success(r.getPartitions(0)), true, false);
            case CANCELLED -> new State(JSON.createObjectNode().put("status", "aborted"), true, false);
            default -> new State(failed(r.getError().isEmpty() ? r.getState().name() : r.getError()), true, false);
        };
    }

    /** {@code proof} and {@code pubData} are JSON documents in strings, as rapidsnark sends them. */
    private static ObjectNode success(PartitionResult p) {
        ArrayNode pub = JSON.createArrayNode();
        p.getPublicSignalsList().forEach(pub::add);
        String proof;
        try {
            proof = JSON.readTree(p.getProofJson()).toString();
        } catch (JacksonException e) {
            throw new IllegalStateException("a proof that is not JSON", e);
        }
        return JSON.createObjectNode().put("status", "success").put("proof", proof).put("pubData", pub.toString());
    }

    private static ObjectNode failed(String error) {
        return JSON.createObjectNode().put("status", "failed").put("error", error);
    }

    // ------------------------------------------------------------------ answers

    private static String description(Status s) {
        return s.getDescription() == null ? s.getCode().name() : s.getDescription();
    }

    private static HttpRoutes.Answer notAllowed(String method) {
        return error(405, JsonApi.clip(method) + " is not a method of this route");
    }

    private static HttpRoutes.Answer error(int status, String message) {
        return json(status, JSON.createObjectNode().put("error", message));
    }

    private static HttpRoutes.Answer json(int status, ObjectNode body) {
        return new HttpRoutes.Answer(status, "application/json", body.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static CompletableFuture<HttpRoutes.Answer> done(HttpRoutes.Answer a) {
        return CompletableFuture.completedFuture(a);
    }

    private boolean authorized(String header, String query) {
        if (BearerTokens.matches(header, token)) {
            return true;
        }
        if (query != null) {
            for (String p : query.split("&")) {
                if (BearerTokens.constantTimeEquals(p, "token=" + token)) {
                    return true;
                }
            }
        }
        return false;
    }
}

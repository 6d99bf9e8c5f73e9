package dev.proofline.daemon.transport.http;

import io.grpc.Status;
import java.util.concurrent.CompletableFuture;

/**
 * What one HTTP listener serves: the daemon's own routes ({@link HttpRoutes}) or rapidsnark's
 * prover-server routes ({@link RapidsnarkRoutes}). {@link HttpPipeline} does the I/O and the bounds
 * for either; a site decides which requests carry a job, which are health checks, the answers, and
 * the shape of the pipeline's own refusals (a body too large, too many requests).
 */
interface HttpSite {

    /** Whether a request may carry a body up to {@code http.max_job_bytes} rather than {@code max_body_bytes}. */
    boolean takesJob(String method, String target);

    /** Whether the request is a health check, cheap enough to be answered on the network thread. */
    boolean isHealthCheck(String target);

    /** A refusal by the pipeline itself, in this site's shape for {@code target}. */
    HttpRoutes.Answer refusal(String target, int status, Status.Code code, String why);

    /**
     * The answer to {@code method target} with the given Authorization header (null if absent) and body:
     * done on return, or later for a request that waits, without a thread held for it.
     */
    CompletableFuture<HttpRoutes.Answer> answerLater(String method, String target, String authorization, byte[] body);

    /** As {@link #answerLater}, waited for. */
    default HttpRoutes.Answer answer(String method, String target, String authorization) {
        return answerLater(method, target, authorization, new byte[0]).join();
    }
}

package dev.proofline.daemon.transport.http;

import dev.proofline.daemon.jobs.ClientMessages;
import dev.proofline.daemon.transport.BearerTokens;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the HTTP side answers: the bearer token first (when one is configured), then {@code GET /status},
 * {@code /timeline?limit=N} (or {@code ?since=cursor}), {@code /metrics}, {@code /healthz}, the dashboard's
 * files and the JSON API under {@code /v1/} ({@link JsonApi}). No I/O on a connection:
 * {@link StatusHttpServer} hands it a request's method, target and authorization header and writes back
 * the {@link Answer}.
 */
public final class HttpRoutes implements HttpSite {

    /** A response: status code, content type and body. */
    record Answer(int status, String contentType, byte[] body) {
        static Answer text(int status, String body) {
            return new Answer(status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Where the answers come from. */
    public interface Sources {
        String statusJson();

        String timelineJson(int limit);

        /** {@code /timeline?since=}: see {@link TimelineFeed#since}. */
        String timelineSinceJson(String cursor, int limit) throws TimelineFeed.BadCursor;

        String metrics();

        boolean shuttingDown();

        /** Why the daemon takes no new jobs now (its job store damaged, or its disk full), or null. */
        default String notAccepting() {
            return null;
        }
    }

    private final String token;
    private final Sources sources;
    /** The JSON API under /v1/; null: none (its routes are 404). */
    private final JsonApi api;

    /** {@code token} empty: no authentication. */
    public HttpRoutes(String token, Sources sources) {
        this(token, sources, null);
    }

    /** {@code token} empty: no authentication; {@code api} null: no JSON API. */
    public HttpRoutes(String token, Sources sources, JsonApi api) {
        this.token = token;
        this.sources = sources;
        this.api = api;
    }

    @Override
    public boolean takesJob(String method, String target) {
        return JsonApi.takesJob(method, path(target));
    }

    /**
     * 200 while the daemon takes jobs; 503 while it shuts down, or takes no new jobs because its store
     * is damaged or its disk full (the reason in one line: a balancer sends the work elsewhere, an
     * operator reads why).
     */
    private Answer health() {
        if (sources.shuttingDown()) {
            return Answer.text(503, "shutting down\n");
        }
        String why = sources.notAccepting();
        return why == null ? Answer.text(200, "ok\n")
                : Answer.text(503, "not accepting jobs: " + ClientMessages.redact(why) + "\n");
    }

    @Override
    public boolean isHealthCheck(String target) {
        return path(target).equals("/healthz");
    }

    /** A JSON error under {@code /v1/}, plain text elsewhere. */
    @Override
    public Answer refusal(String target, int status, io.grpc.Status.Code code, String why) {
        return target.startsWith(JsonApi.PREFIX) ? JsonApi.error(status, code, why) : Answer.text(status, why + "\n");
    }

    /** The answer to {@code method target} with the given Authorization header (null if absent) and body. */
    Answer answer(String method, String target, String authorization, byte[] body) {
        return answerLater(method, target, authorization, body).join();
    }

    /**
     * As {@link #answer}, done on return except for a JSON API request that waits (a job's state with
     * {@code wait_ms}), which completes later, without a thread held for it.
     */
    @Override
    public CompletableFuture<Answer> answerLater(String method, String target, String authorization,
            byte[] body) {
        URI uri;
        try {
            uri = new URI(target);
        } catch (URISyntaxException e) {
            return CompletableFuture.completedFuture(Answer.text(400, "bad request target\n"));
        }
        // the JSON API once authorized; everything else (and its 401) answers now
        if (isJsonApi(uri.getPath()) && (token.isEmpty() || authorized(authorization, uri.getRawQuery()))) {
            return api.answerLater(method, uri.getPath(), uri.getRawQuery(), body);
        }
        return CompletableFuture.completedFuture(answerNow(method, target, authorization));
    }

    private Answer answerNow(String method, String target, String authorization) {
        URI uri;
        try {
            uri = new URI(target);
        } catch (URISyntaxException e) {
            return Answer.text(400, "bad request target\n");
        }
        boolean json = isJsonApi(uri.getPath());
        if (!token.isEmpty() && !authorized(authorization, uri.getRawQuery())) {
            String why = "unauthorized: send Authorization: Bearer <token>";
            return json ? JsonApi.error(401, io.grpc.Status.Code.UNAUTHENTICATED, why) : Answer.text(401, why + "\n");
        }
        if (!method.equals("GET")) {
            return Answer.text(405, "GET only\n");
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        if (!path.startsWith("/")) {
            // e.g. "//name": an authority and an empty path (found by HttpRequestFuzzTest; was a 500)
            return Answer.text(404, "not found\n");
        }
        try {
            return switch (path) {
                case "/status" -> json(sources.statusJson());
                case "/timeline" -> timeline(uri.getRawQuery());
                case "/metrics" -> new Answer(200, "text/plain; version=0.0.4; charset=utf-8",
                        sources.metrics().getBytes(StandardCharsets.UTF_8));
                case "/healthz" -> health();
                default -> staticFile(path);
            };
        } catch (RuntimeException e) {
            // the message names the problem, not where it happened: no stack trace goes to a client
            return Answer.text(500, "error: " + ClientMessages.redact(String.valueOf(e.getMessage())) + "\n");
        }
    }

    /** {@code /timeline?limit=N}: the last events, as an array; with {@code since=cursor}, those after it. */
    private Answer timeline(String query) {
        int limit = queryInt(query, "limit", 2000);
        String since = queryValue(query, "since");
        if (since == null) {
            return json(sources.timelineJson(limit));
        }
        try {
            return json(sources.timelineSinceJson(since, limit));
        } catch (TimelineFeed.BadCursor e) {
            return JsonApi.error(400, io.grpc.Status.Code.INVALID_ARGUMENT, e.getMessage());
        }
    }

    private boolean isJsonApi(String path) {
        return api != null && path != null && path.startsWith(JsonApi.PREFIX);
    }

    private static String path(String target) {
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }

    private static Answer json(String body) {
        return new Answer(200, "application/json", body.getBytes(StandardCharsets.UTF_8));
    }

    private boolean authorized(String header, String query) {
        return BearerTokens.matches(header, token)
                || query != null && List.of(query.split("&")).stream()
                        .anyMatch(p -> BearerTokens.constantTimeEquals(p, "token=" + token));
    }

    private static int queryInt(String query, String name, int def) {
        if (query != null) {
            for (String p : query.split("&")) {
                if (p.startsWith(name + "=")) {
                    try {
                        return Math.max(0, Math.min(100_000, Integer.parseInt(p.substring(name.length() + 1))));
                    } catch (NumberFormatException e) {
                        return def;
                    }
                }
            }
        }
        return def;
    }

    /** The value of {@code name=} in the query, as sent; null when absent. */
    private static String queryValue(String query, String name) {
        if (query != null) {
            for (String p : query.split("&")) {
                if (p.startsWith(name + "=")) {
                    return p.substring(name.length() + 1);
                }
            }
        }
        return null;
    }

    private static Answer staticFile(String path) {
        String name = path.equals("/") ? "index.html" : path.substring(1);
        if (!name.matches("[a-z0-9_-]+\\.(html|js|css)")) {
            return Answer.text(404, "not found\n");
        }
        try (InputStream in = HttpRoutes.class.getResourceAsStream("/dev/proofline/daemon/web/" + name)) {
            if (in == null) {
                return Answer.text(404, "not found\n");
            }
            String type = name.endsWith(".html") ? "text/html; charset=utf-8"
                    : name.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8";
            return new Answer(200, type, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.proofline.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.KeyTableCache;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The local engine ({@code proofline engine}): a warm JVM that runs the proving commands for clients
 * on this machine, with their proving keys and witness generators kept open ({@link ResidentFiles}).
 *
 * <p>It listens on 127.0.0.1 on an ephemeral port, which it writes with a random 256-bit token and its
 * pid into the owner-only {@linkplain EngineHome#endpointFile() endpoint file}; a request without that
 * token is closed unread. Commands run one at a time, in the order their requests came (a proof uses
 * every core), each with its own output writers and the client's working directory
 * ({@link Main#run(Invocation, PrintWriter, PrintWriter, String...)}), so that output, files and exit
 * code are those of a one-off process. The engine stops when asked ({@code engine stop}), after
 * {@code idleTimeout} without requests, or on SIGTERM ({@link #abandon()}), and removes its endpoint
 * file then.
 *
 * <p>Requests come as lines of UTF-8 on a loopback socket ({@link EngineRequest}). The daemon's client
 * commands ({@link #CLIENT}: they wait on the network, not on the cores) run at once, beside the queue;
 * the {@link #SERVED} commands one at a time; {@code engine status} and {@code engine stop} are answered
 * without waiting for the queue.
 */
final class LocalEngine {

    /** The first argument of the commands the engine runs for clients. */
    static final Set<String> SERVED = Set.of("prove", "verify", "fullprove", "groth16", "zkey", "wtns");

    /** The daemon's client commands, which the engine runs beside its queue. */
    static final Set<String> CLIENT = Set.of("submit", "await", "status", "cancel");

    /** The address the engine listens on: 127.0.0.1, which the bash launcher names (never ::1). */
    static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");

    /** Witness generators kept open (keys: as many as {@link EngineMemory#keyBudgetBytes} holds). */
    static final int RESIDENT_WASMS = 4;

    /** Time a client has to send its request once connected. */
    private static final int REQUEST_TIMEOUT_MS = 10_000;

    private final EngineHome home;
    private final Duration idleTimeout;
    private final PrintStream log;
    /** The state directory's lock; null until a successor takes over ({@link Succession.Successor#takeOver}). */
    private volatile EngineLock lock;
    private final ServerSocket listener;
    private final EngineHome.Endpoint endpoint;
    private final ResidentFiles resident;
    /** Runs the commands, one at a time, in the order submitted. */
    private final ExecutorService worker = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("engine-worker").daemon(true).factory());
    private final long startNanos = System.nanoTime();
    private final AtomicLong lastActivity = new AtomicLong(System.nanoTime());
    /** Requests submitted to the worker and not finished. */
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong served = new AtomicLong();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile String stopReason = "";
    /** Started without the 8-lane kernels, to make way for an engine with them for a larger key ({@link #withoutKernels}). */
    private volatile boolean withoutKernels;
    private final Succession succession;
    /** Where this engine succeeds another: how it takes over; else null. */
    private final Succession.Successor successor;
    /** The background warm-up, once started ({@link #startWarmUp}). */
    private volatile EngineWarmUp warmUp;
    /** The engine's own background work, which waits while requests run. */
    private final Housekeeping housekeeping;
    /** Keys' tables kept on disk between engines. */
    private final KeyTableCache tableCache;
    /** Started by a one-off command ({@link AutoStart}), not by {@code engine start}. */
    private final boolean auto;
    private final long tableBytesPerKey;
    /** The resident keys, written for the next engine and opened again by it. */
    private final KeysAcrossRestarts keysAcrossRestarts;
    /** The keys' checks against a ptau ({@code --verify-keys}); null: keys are not checked. */
    private final VerifiedKeys verifiedKeys;
    /** How the commands open keys: the resident files, each key checked first where keys are checked. */
    private final Loader loader;

    private LocalEngine(EngineHome home, Duration idleTimeout, PrintStream log, EngineLock lock, long keyTableBytes,
            boolean auto, Path verifyKeys, long predecessor) throws IOException {
        this.housekeeping = new Housekeeping(home, true, predecessor);
        this.tableCache = new KeyTableCache(home.keyTableCacheDir());
        this.resident = new ResidentFiles(EngineMemory.keyBudgetBytes(), RESIDENT_WASMS, new ResidentFiles.TableBuilding(keyTableBytes,
                tableCache, housekeeping::submit, housekeeping::awaitTurn));
        this.verifiedKeys = verifyKeys == null ? null : new VerifiedKeys(verifyKeys, home);
        this.loader = EngineWarmUp.toldOfKeys(verifiedKeys == null ? resident : verifiedKeys.over(resident),
                this::keyUsed);
        this.auto = auto;
        this.tableBytesPerKey = keyTableBytes;
        this.home = home;
        this.idleTimeout = idleTimeout;
        this.log = log;
        this.lock = lock;
        this.succession = new Succession(home, this::log);
        this.listener = new ServerSocket(0, 50, LOOPBACK);
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        this.endpoint = new EngineHome.Endpoint(listener.getLocalPort(), HexFormat.of().formatHex(secret),
                ProcessHandle.current().pid(), EngineClient.ownJar());
        this.successor = predecessor == 0 ? null : new Succession.Successor(home, predecessor, endpoint, this::serveFromNow,
                l -> this.lock = l, this::stop, this::log);
        this.keysAcrossRestarts = new KeysAcrossRestarts(home, resident, loader, housekeeping, this::log);
    }

    /** Another engine holds the state directory. */
    static final class AlreadyRunningException extends IllegalStateException {
        AlreadyRunningException(EngineHome home) {
            super("an engine is already running for " + home.dir());
        }
    }

    /**
     * Starts an engine on {@code home}: takes its lock, listens, writes the endpoint file and returns,
     * serving on background threads. {@code idleTimeout} zero: no idle stop. Lines about its life and
     * each request go to {@code log}.
     *
     * @throws AlreadyRunningException if another engine (in this process or another) holds {@code home}
     */
    static LocalEngine start(EngineHome home, Duration idleTimeout, PrintStream log) throws IOException {
        return start(home, idleTimeout, log, EngineMemory.tableBytesPerKey(), false, null, 0);
    }

    /**
     * As {@link #start(EngineHome, Duration, PrintStream)}, with that much for each key's tables (0: none);
     * {@code auto}: started by a one-off command ({@link AutoStart}), as the status says; {@code verifyKeys}:
     * a prepared ptau that every key must verify against, with its r1cs, before it is proved with
     * ({@link VerifiedKeys}; null: keys are not checked); {@code predecessor}: the pid of the engine this one
     * succeeds ({@link Succession}), 0 for none: such an engine takes neither the lock nor requests until its
     * warm-up has ended ({@link #startWarmUp}) and it takes over, and stops if its predecessor ends first.
     */
    static LocalEngine start(EngineHome home, Duration idleTimeout, PrintStream log, long keyTableBytes,
            boolean auto, Path verifyKeys, long predecessor) throws IOException {
        EngineLock lock = predecessor != 0 ? null : EngineLock.take(home).orElseThrow(() -> new AlreadyRunningException(home));
        LocalEngine server = null;
        try {
            server = new LocalEngine(home, idleTimeout, log, lock, keyTableBytes, auto, verifyKeys, predecessor);
            if (predecessor == 0) {
                home.writeEndpoint(server.endpoint);
            }
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                closeQuietly(server.listener);
            }
            if (lock != null) {
                lock.close();
            }
            throw e;
        }
        server.log("engine started" + (auto ? " by a command" : "") + ": pid " + server.endpoint.pid() + ", 127.0.0.1:"
                + server.endpoint.port()
                + ", idle timeout " + (idleTimeout.isZero() ? "none" : EngineCommand.format(idleTimeout))
                + (verifyKeys == null ? "" : ", keys verified against " + server.verifiedKeys.ptau())
                + (predecessor == 0 ? "" : "; warms up beside pid " + predecessor + " and takes over once warm"));
        if (server.successor == null) {
            server.serveFromNow();
        } else {
            server.successor.watch();
        }
        return server;
    }

    /** Takes requests from now on (and stops when idle for the timeout). */
    private void serveFromNow() {
        lastActivity.set(System.nanoTime());
        Thread.ofVirtual().name("engine-accept").start(this::accept);
        if (!idleTimeout.isZero()) {
            Thread.ofVirtual().name("engine-idle").start(this::watchIdle);
        }
    }

    /**
     * Starts compiling the code of a proof on those curves in the background ({@link EngineWarmUp}),
     * with the 8-lane kernels or not, with that many proofs on each ({@link EngineWarmUp#PROOFS}); its
     * state is in the status.
     */
    void startWarmUp(List<PairingCurve> curves, boolean kernels, int proofs) {
        Runnable last = successor == null ? keysAcrossRestarts::proveHeld : () -> {
            keysAcrossRestarts.reopenAndProve();
            successor.takeOver();
        };
        EngineWarmUp w = new EngineWarmUp(housekeeping, this::log, curves, kernels, proofs, last);
        warmUp = w;
        w.start();
    }

    /** A request (or the one-off command that started the engine) proves with a key of that domain size (log). */
    void keyUsed(int logDomainSize) {
        EngineWarmUp w = warmUp;
        if (w != null) {
            w.keyUsed(logDomainSize);
        }
        if (withoutKernels && logDomainSize >= EngineWarmUp.kernelsFromLog()) {
            succession.start(logDomainSize, housekeeping);
        }
    }

    /**
     * Runs without the 8-lane kernels ({@code engine run --no-kernels}): the first key of
     * 2^{@link EngineWarmUp#kernelsFromLog} or more starts its successor ({@link Succession}) with the JVM of
     * {@code args}, this engine's arguments, where it was not started through the launcher.
     */
    void withoutKernels(List<String> args) {
        withoutKernels = true;
        succession.startedWith(args);
    }

    /**
     * Opens again, in the background as the engine's own work, the keys the last engine of this state
     * directory held ({@link KeysAcrossRestarts#reopen}); {@code warmUpFollows}: {@link #startWarmUp} is
     * called next, and proves them at its end.
     */
    void reopenKeys(boolean warmUpFollows) {
        keysAcrossRestarts.reopen(warmUpFollows);
    }

    EngineHome.Endpoint endpoint() {
        return endpoint;
    }

    /** Commands run for clients so far (control requests not counted). */
    long served() {
        return served.get();
    }

    /** Waits until the engine has stopped; true if it has. */
    boolean awaitStopped(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    void awaitStopped() throws InterruptedException {
        stopped.await();
    }

    /** Why the engine stopped ("stopped by request", "idle for 30m"); empty while it runs. */
    String stopReason() {
        return stopReason;
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                break;   // closed by stop
            }
            Thread.ofVirtual().name("engine-request").start(() -> serve(s));
        }
    }

    private void watchIdle() {
        long every = Math.clamp(idleTimeout.toMillis() / 10, 20, 5_000);
        try {
            while (stopped.getCount() > 0) {
                Thread.sleep(every);
                if (pending.get() == 0 && System.nanoTime() - lastActivity.get() >= idleTimeout.toNanos()) {
                    stop("idle for " + EngineCommand.format(idleTimeout));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops taking requests (the endpoint file is removed, the port closed), lets the commands already
     * taken finish, closes the resident files and returns once the engine has stopped. Later calls wait
     * for the same stop.
     */
    void stop(String reason) {
        if (stopping.compareAndSet(false, true)) {
            stopReason = reason;
            succession.stopping();
            home.removeEndpoint(endpoint);
            closeQuietly(listener);
            try {
                worker.submit(this::release);
            } finally {
                worker.shutdown();
            }
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last task of the worker: closes what the engine holds. */
    private void release() {
        housekeeping.close();
        resident.close();
        EngineLock l = lock;
        if (l != null) {
            l.close();
        }
        log("engine stopped: " + stopReason + "; " + served.get() + " requests served");
        stopped.countDown();
    }

    /**
     * For a shutdown hook (SIGTERM): removes the endpoint file and closes the port at once, without
     * waiting for a command that runs (the process is ending).
     */
    void abandon() {
        if (stopping.compareAndSet(false, true)) {
            stopReason = "terminated";
            succession.stopping();
            home.removeEndpoint(endpoint);
            closeQuietly(listener);
            log("engine terminated; " + served.get() + " requests served");
        }
    }

    /** The lines of {@code engine status}. */
    List<String> status() {
        long now = System.nanoTime();
        List<String> lines = new ArrayList<>();
        lines.add("engine     pid " + endpoint.pid() + ", 127.0.0.1:" + endpoint.port() + ", up "
                + elapsed(now - startNanos) + (auto ? ", started by a command (auto-start)" : ", started by hand"));
        int waiting = pending.get();
        lines.add("idle       " + (waiting > 0 ? "no, " + waiting + " request" + (waiting == 1 ? "" : "s") + " in hand"
                : "for " + elapsed(now - lastActivity.get()))
                + "; timeout " + (idleTimeout.isZero() ? "none" : EngineCommand.format(idleTimeout)));
        lines.add("requests   " + served.get() + " served");
        EngineWarmUp w = warmUp;
        lines.add("warm-up    " + (w != null ? w.state() : withoutKernels ? "none: started by a command, its requests warm it"
                : "none"));
        lines.add("kernels    " + EngineWarmUp.kernels(withoutKernels));
        succession.statusLine().ifPresent(lines::add);
        VerifiedKeys v = verifiedKeys;
        lines.add("keys       " + (v == null ? "not checked (engine start --verify-keys <prepared.ptau>)"
                : String.format(Locale.ROOT, "checked against %s and the r1cs beside each key: %d verified, %d"
                        + " found verified before, %d refused, %d found refused before", v.ptau(), v.verified(),
                        v.foundVerified(), v.refused(), v.foundRefused())));
        List<String> files = resident.describe();
        lines.add("resident   " + resident.keyCount() + " key" + (resident.keyCount() == 1 ? "" : "s") + ", "
                + (files.size() - resident.keyCount()) + " witness generator"
                + (files.size() - resident.keyCount() == 1 ? "" : "s"));
        lines.addAll(files);
        lines.addAll(EngineMemory.statusLines(resident.tableBytes(), tableBytesPerKey, resident.keyBudgetBytes(),
                resident.keyFileBytes()));
        lines.add("cache      " + tableCache.dir() + " (at most " + ResidentFiles.size(tableCache.maxBytes()) + ")");
        return lines;
    }

    /** A time for people: in milliseconds below a second, else in whole seconds ({@code 2h5m12s}). */
    private static String elapsed(long nanos) {
        Duration d = Duration.ofNanos(nanos);
        return EngineCommand.format(d.truncatedTo(d.toSeconds() < 1 ? ChronoUnit.MILLIS : ChronoUnit.SECONDS));
    }

    /** One connection: read and check the request, run it (or answer a control request), respond. */
    private void serve(Socket socket) {
        try (socket) {
            socket.setSoTimeout(REQUEST_TIMEOUT_MS);
            EngineRequest request = EngineRequest.read(new BufferedInputStream(socket.getInputStream()),
                    this::tokenMatches);
            if (request == null) {
                return;   // closed unread: no work done
            }
            List<String> args = request.args();
            Path cwd = request.cwd();
            Map<String, String> env = request.env();
            socket.setSoTimeout(0);
            EngineResponse response = new EngineResponse(socket.getOutputStream());
            if (args.equals(List.of("engine", "status"))) {
                status().forEach(line -> response.line('o', line));
                response.exit(0);
            } else if (args.equals(List.of("engine", "stop")) || succession.handOver(args)) {
                stop(args.getLast().equals("stop") ? "stopped by request" : "handed over to its successor, with the 8-lane kernels");
                response.line('o', "engine stopped (pid " + endpoint.pid() + ")");
                response.exit(0);
            } else if (!args.isEmpty() && CLIENT.contains(args.getFirst())) {
                response.exit(execute(cwd, args, env, response, false));
            } else if (args.isEmpty() || !SERVED.contains(args.getFirst())) {
                response.line('e', "proofline: the engine does not run "
                        + (args.isEmpty() ? "an empty command" : "'" + args.getFirst() + "'"));
                response.exit(Main.EXIT_INPUT);
            } else {
                run(cwd, args, env, response);
            }
        } catch (IOException e) {
            // the client went away: nothing to tell it
        }
    }

    /** Runs one command on the worker, after the requests before it; nothing is sent if the engine is stopping. */
    private void run(Path cwd, List<String> args, Map<String, String> env, EngineResponse response) {
        Future<Integer> done;
        pending.incrementAndGet();
        try {
            done = worker.submit(() -> execute(cwd, args, env, response, true));
        } catch (RejectedExecutionException e) {
            pending.decrementAndGet();
            return;   // stopping: closed with no response, the client runs it itself
        }
        int code;
        try {
            code = done.get();
        } catch (ExecutionException e) {
            code = Main.EXIT_FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        response.exit(code);
    }

    /**
     * Runs one command line for a client; {@code queued}: a proving command of the queue, which
     * housekeeping waits for (a client command of the daemon's is neither).
     */
    private int execute(Path cwd, List<String> args, Map<String, String> env, EngineResponse response, boolean queued) {
        long t0 = System.nanoTime();
        int code;
        if (queued) {
            housekeeping.requestStarted();
        } else {
            pending.incrementAndGet();
        }
        PrintWriter out = new PrintWriter(response.writer('o'), true);
        PrintWriter err = new PrintWriter(response.writer('e'), true);
        try {
            code = Main.run(new Invocation(false, loader, new ClientPaths(cwd), env), out, err,
                    args.toArray(String[]::new));
        } catch (Throwable t) {   // an Error the command line's handler does not take (OutOfMemoryError, ...)
            err.println("proofline " + args.getFirst() + ": " + t);
            code = Main.EXIT_FAILURE;
        } finally {
            out.close();
            err.close();
            served.incrementAndGet();
            lastActivity.set(System.nanoTime());
            pending.decrementAndGet();
            if (queued) {
                housekeeping.requestEnded();
                keysAcrossRestarts.remember();
            }
        }
        log(String.format(Locale.ROOT, "%s: exit %d, %.0f ms", EngineRequest.loggable(args), code,
                (System.nanoTime() - t0) / 1e6));
        return code;
    }

    private boolean tokenMatches(String given) {
        return given != null && MessageDigest.isEqual(endpoint.token().getBytes(StandardCharsets.US_ASCII),
                given.getBytes(StandardCharsets.UTF_8));
    }

    private void log(String line) {
        log.println(LocalDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE_TIME) + " " + line);
        log.flush();
    }

    private static void closeQuietly(ServerSocket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}

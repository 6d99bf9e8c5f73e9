package dev.proofline.cli;

import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.config.DaemonConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code proofline daemon}: the proving daemon in the foreground until SIGTERM or SIGINT, which stop
 * it gracefully (new submissions refused, running jobs given the grace period) and exit 0.
 */
@Command(name = "daemon", mixinStandardHelpOptions = true,
        description = {"Run the proving daemon: gRPC API, HTTP status, metrics and dashboard.",
            "Flags override the config file; with no file every default applies (proofline.example.toml)."})
final class DaemonCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "<file.toml>",
            description = "the configuration file (every key and its default: proofline.example.toml)")
    Path config;

    @Option(names = "--keys", paramLabel = "<dir>", description = "keys directory (one folder per circuit)")
    Path keys;

    @Option(names = "--verify-keys", paramLabel = "<prepared.ptau>",
            description = "register a circuit only if its key verifies (as `zkey verify`) against its circuit.r1cs and"
                    + " this prepared powers of tau (keys.verify_with)")
    Path verifyKeys;

    @Option(names = "--grpc-listen", paramLabel = "<host:port>",
            description = "the gRPC API's address (server.grpc_listen; default 127.0.0.1:50051; port 0: a free one)")
    String grpcListen;

    @Option(names = "--http-listen", paramLabel = "<host:port>",
            description = "the address of the dashboard, /status, /metrics and the JSON API (server.http_listen;"
                    + " default 127.0.0.1:8080)")
    String httpListen;

    @Option(names = "--rapidsnark-listen", paramLabel = "<host:port>",
            description = "also serve rapidsnark's prover-server routes (POST /input/<circuit>, GET /status, ...)"
                    + " on this address (server.rapidsnark_listen; e.g. 127.0.0.1:9080); docs/daemon.md")
    String rapidsnarkListen;

    @Option(names = "--insecure", description = "serve a non-loopback address without an auth token")
    boolean insecure;

    @Option(names = "--database", paramLabel = "<postgresql://...>",
            description = "cluster mode: share the job queue in this PostgreSQL database (cluster.database)")
    String database;

    @Option(names = "--store", paramLabel = "<dir|memory>",
            description = "a single daemon's job queue: a directory for the durable store (store.directory), or"
                    + " memory (jobs are lost with the process)")
    String store;

    @Option(names = "--set-aside-damaged-store",
            description = "a job store found damaged at start (empty, truncated, corrupt, or a damaged log) is moved"
                    + " into damaged-<time>/ in its directory and an empty store begins; without it such a store"
                    + " is refused (store.on_damage)")
    boolean setAsideDamagedStore;

    @Override
    public Integer call() throws Exception {
        DaemonConfig cfg = config != null ? DaemonConfig.read(config) : DaemonConfig.defaults();
        cfg = cfg.withOverrides(grpcListen, httpListen, keys == null ? null : keys.toString(), insecure,
                verifyKeys == null ? null : verifyKeys.toString());
        if (rapidsnarkListen != null) {
            cfg = cfg.withRapidsnarkListen(rapidsnarkListen);
        }
        if (database != null) {
            cfg = cfg.withDatabase(database);
        }
        if (store != null) {
            cfg = cfg.withStore(store);
        }
        if (setAsideDamagedStore) {
            cfg = cfg.withDamagedStoreSetAside();
        }
        Daemon d = Daemon.start(cfg, System.err::println);
        CountDownLatch stopped = new CountDownLatch(1);
        Duration grace = DaemonConfig.parseDuration(cfg.shutdown().gracePeriod());
        Runnable stop = () -> {
            try {
                d.shutdown(grace);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                stopped.countDown();
            }
        };
        // SIGTERM and SIGINT: a graceful stop, then exit 0 (the JVM's own handling would exit 143)
        for (String sig : new String[] {"TERM", "INT"}) {
            sun.misc.Signal.handle(new sun.misc.Signal(sig), s -> Thread.ofPlatform().name("shutdown").start(stop));
        }
        stopped.await();
        return 0;
    }
}

package dev.proofline.daemon.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.daemon.cluster.SingleNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DaemonConfigTest {

    @TempDir
    Path tmp;

    private static String error(String toml) {
        return assertThrows(DaemonConfig.ConfigException.class, () -> DaemonConfig.parse(toml, "d.toml")).getMessage();
    }

    @Test
    void defaultsServeLoopbackOnly() {
        DaemonConfig d = DaemonConfig.parse("", "d.toml");
        assertEquals("127.0.0.1:50051", d.server().grpcListen());
        assertEquals("127.0.0.1:8080", d.server().httpListen());
        assertTrue(DaemonConfig.isLoopback(d.server().grpcListen()));
        assertEquals("auto", d.engine().budget());
        assertEquals("auto", d.engine().permits());
        assertEquals(Duration.ofSeconds(30), DaemonConfig.parseDuration(d.shutdown().gracePeriod()));
        assertEquals(DaemonConfig.defaults(), d);
    }

    @Test
    void theExampleFileIsValidAndSaysWhatTheDefaultsAre() throws Exception {
        Path example = Path.of(System.getProperty("user.dir")).getParent().resolve("proofline.example.toml");
        DaemonConfig d = DaemonConfig.read(example);
        assertEquals(DaemonConfig.defaults(), d, "every key in the example is set to its default");
    }

    @Test
    void theHttpBoundsHaveDefaultsAndAreChecked() {
        DaemonConfig.Http h = DaemonConfig.parse("", "d.toml").http();
        assertEquals(new DaemonConfig.Http("10s", "60s", 4096, 16, "16KiB", "64KiB", "64MiB"), h);
        DaemonConfig.Http set = DaemonConfig.parse("[http]\nheader_timeout = \"2s\"\nmax_connections = 100\n", "d.toml")
                .http();
        assertEquals("2s", set.headerTimeout());
        assertEquals(100, set.maxConnections());
        assertEquals("d.toml:2: http.max_connections: 0 is below the minimum of 1",
                error("[http]\nmax_connections = 0\n"));
        assertEquals("d.toml:2: http.idle_timeout: 'soon' is not a duration (a whole number with ms, s, m or h)",
                error("[http]\nidle_timeout = \"soon\"\n"));
    }

    @Test
    void theGrpcConnectionCapAndReserveHaveDefaultsAndAreChecked() {
        DaemonConfig.Limits l = DaemonConfig.parse("", "d.toml").limits();
        assertEquals(4096, l.maxConnections());
        assertEquals(64, l.reservedConnections());
        DaemonConfig.Limits set = DaemonConfig.parse("[limits]\nmax_connections = 100\nreserved_connections = 0\n",
                "d.toml").limits();
        assertEquals(100, set.maxConnections());
        assertEquals(0, set.reservedConnections());
        assertEquals("d.toml:2: limits.max_connections: 0 is below the minimum of 1",
                error("[limits]\nmax_connections = 0\n"));
        assertEquals("d.toml:3: limits.reserved_connections: -1 is below the minimum of 0",
                error("[limits]\n\nreserved_connections = -1\n"));
    }

    @Test
    void badFilesNameTheKeyAndItsLine() throws Exception {
        assertEquals("d.toml:3: engine.permitz: unknown key", error("[engine]\nbudget = \"auto\"\npermitz = 3\n"));
        String wrongType = error("[engine]\n\npermits = \"three\"\n");
        assertEquals("d.toml:3: engine.permits: 'three' is neither \"auto\" nor a number", wrongType);
        String wrongThreads = error("[engine]\n\nsynthesis_threads = \"three\"\n");
        assertTrue(wrongThreads.startsWith("d.toml:3: engine.synthesis_threads: wrong type"), wrongThreads);
        assertEquals("d.toml:2: engine.permits: 0 is below the minimum of 1", error("[engine]\npermits = 0\n"));
        // engine.dispatch was removed with poll dispatch: a config that still sets it is told so, whatever the value
        for (String v : new String[] {"poll", "reactive"}) {
            assertEquals("d.toml:4: engine.dispatch: removed: the engine has one dispatcher (a permit before synthesis,"
                    + " as \"reactive\" was); delete this key",
                    error("[engine]\npermits = 2\n\ndispatch = \"" + v + "\"\n"));
        }
        // the backends are those whose providers are on the class path (the daemon's has cpu and cuda)
        assertEquals("d.toml:2: engine.backend: 'gpu' is not one of auto, cpu, cuda",
                error("[engine]\nbackend = \"gpu\"\n"));
        assertEquals("d.toml:2: engine.budget: '8 gigs' is not a size (a whole number, optionally with B, KiB, MiB,"
                + " GiB or TiB)", error("[engine]\nbudget = \"8 gigs\"\n"));
        assertEquals("d.toml:2: server.grpc_listen: 'localhost' is not host:port",
                error("[server]\ngrpc_listen = \"localhost\"\n"));
        assertEquals("d.toml:2: shutdown.grace_period: '30' is not a duration (a whole number with ms, s, m or h)",
                error("[shutdown]\ngrace_period = \"30\"\n"));
        String syntax = error("[engine\npermits = 2\n");
        assertTrue(syntax.startsWith("d.toml:1: not valid TOML"), syntax);
        Path missing = tmp.resolve("nope.toml");
        assertEquals(missing + ": no such config file",
                assertThrows(DaemonConfig.ConfigException.class, () -> DaemonConfig.read(missing)).getMessage());
        Files.writeString(tmp.resolve("ok.toml"), "[engine]\nbudget = \"512MiB\"\n");
        // the requests being decoded take a quarter of the budget by default, the engine the rest
        assertEquals(384L << 20, DaemonConfig.read(tmp.resolve("ok.toml")).engineConfig(2).budgetBytes());
        assertEquals(128L << 20, DaemonConfig.read(tmp.resolve("ok.toml")).requestMemory());
        Files.writeString(tmp.resolve("req.toml"), "[engine]\nbudget = \"512MiB\"\nrequest_memory = \"64MiB\"\n");
        assertEquals(448L << 20, DaemonConfig.read(tmp.resolve("req.toml")).engineConfig(2).budgetBytes());
        assertEquals("d.toml:3: engine.request_memory: 512MiB leaves nothing of engine.budget (512MiB) to the engine",
                error("[engine]\nbudget = \"512MiB\"\nrequest_memory = \"512MiB\"\n"));
        assertEquals(128, DaemonConfig.read(tmp.resolve("ok.toml")).limits().maxCallsPerConnection());
        DaemonConfig d = DaemonConfig.read(tmp.resolve("ok.toml"));
        assertEquals(1, d.engineConfig(2, false).proverWorkers(), "one worker on the CPU by default");
        assertEquals(2, d.engineConfig(2, true).proverWorkers(), "two per GPU by default");
        Files.writeString(tmp.resolve("three.toml"), "[engine]\nprover_workers_per_device = 3\n");
        assertEquals(3, DaemonConfig.read(tmp.resolve("three.toml")).engineConfig(2, true).proverWorkers());
    }

    @Test
    void oversizeDeepAndDirectoryConfigsAreRejected() throws Exception {
        Path big = tmp.resolve("big.toml");
        Files.writeString(big, "# " + "x".repeat(2 << 20) + "\n");
        assertEquals(big + ": " + Files.size(big) + " bytes, a config file has at most 1048576",
                assertThrows(DaemonConfig.ConfigException.class, () -> DaemonConfig.read(big)).getMessage());
        String deep = error("[engine]\ndevices = " + "[".repeat(10_000) + "]".repeat(10_000) + "\n");
        assertTrue(deep.startsWith("d.toml:") && deep.contains("nesting depth"), deep);
        String deepTables = error("[" + "a.".repeat(5_000) + "b]\n");
        assertTrue(deepTables.startsWith("d.toml:") && deepTables.contains("nesting depth"), deepTables);
        assertEquals(tmp + ": is a directory, expected a config file",
                assertThrows(DaemonConfig.ConfigException.class, () -> DaemonConfig.read(tmp)).getMessage());
    }

    @Test
    void aSingleDaemonsNodeWaitsAndRetriesAsTheClusterDefaultsDo() {
        DaemonConfig.Cluster defaults = DaemonConfig.defaults().cluster();
        assertEquals(DaemonConfig.parseDuration(defaults.fallbackPoll()), SingleNode.FALLBACK_POLL);
        assertEquals(defaults.maxAttempts(), SingleNode.MAX_ATTEMPTS);
        assertEquals(DaemonConfig.parseDuration(defaults.heartbeatInterval()), SingleNode.UPKEEP_INTERVAL,
                "a job past its deadline ends as soon on a single daemon as in a cluster");
    }

    @Test
    void theClusterSectionIsCheckedToo() {
        DaemonConfig d = DaemonConfig.defaults();
        assertFalse(d.cluster().enabled(), "a single daemon by default");
        assertEquals("d.toml:2: cluster.database: 'mysql://db/x' is not a postgresql://user:password@host:port/database"
                + " URL", error("[cluster]\ndatabase = \"mysql://db/x\"\n"));
        assertEquals("d.toml:3: cluster.heartbeat_interval: must be at most half of lease_timeout (3s), so a live node"
                + " keeps its leases", error("[cluster]\nlease_timeout = \"3s\"\nheartbeat_interval = \"2s\"\n"));
        assertEquals("d.toml:2: cluster.node_id: 'a b': letters, digits and . _ : - (at most 128)",
                error("[cluster]\nnode_id = \"a b\"\n"));
        assertEquals("d.toml:2: cluster.max_attempts: 0 is below the minimum of 1", error("[cluster]\nmax_attempts = 0\n"));
        DaemonConfig c = DaemonConfig.parse("[cluster]\ndatabase = \"postgresql://u:secret@db.example:5433/jobs\"\n",
                "c.toml");
        assertTrue(c.cluster().enabled());
        java.util.Properties props = new java.util.Properties();
        assertEquals("jdbc:postgresql://db.example:5433/jobs", DatabaseUrl.jdbcUrl(c.cluster().database(), props));
        assertEquals("u", props.getProperty("user"));
        assertEquals("secret", props.getProperty("password"));
        assertEquals("postgresql://u:***@db.example:5433/jobs", DatabaseUrl.redacted(c.cluster().database()));
        assertEquals("postgresql://h/db", DaemonConfig.defaults().withDatabase("postgresql://h/db").cluster().database());
    }

    @Test
    void aSingleDaemonsQueueIsDurableByDefaultInTheStateDirectory() {
        DaemonConfig d = DaemonConfig.defaults();
        assertTrue(d.store().durable());
        assertEquals(java.nio.file.Path.of("/srv/pl/daemon"), d.store().path(java.util.Map.of("PROOFLINE_HOME", "/srv/pl",
                "HOME", "/home/u")));
        assertEquals(java.nio.file.Path.of("/home/u/.proofline/daemon"), d.store().path(java.util.Map.of("HOME", "/home/u")));
        assertEquals(java.nio.file.Path.of("/var/lib/q"), DaemonConfig.parse("[store]\ndirectory = \"/var/lib/q\"\n",
                "d.toml").store().path(java.util.Map.of()));
        assertFalse(DaemonConfig.parse("[store]\nkind = \"memory\"\n", "d.toml").store().durable());
        assertFalse(d.withStore("memory").store().durable());
        assertEquals("/var/lib/q", d.withStore("/var/lib/q").store().directory());
        assertEquals("d.toml:2: store.kind: 'disk' is not one of sqlite, memory", error("[store]\nkind = \"disk\"\n"));
        assertEquals("d.toml:2: store.result_retention: '1 day' is not a duration (a whole number with ms, s, m or h)",
                error("[store]\nresult_retention = \"1 day\"\n"));
    }

    @Test
    void gpusArePickedByOrdinal() {
        assertEquals(java.util.List.of(), DaemonConfig.defaults().engine().devices(), "every usable GPU by default");
        assertEquals(java.util.List.of(0, 2), DaemonConfig.parse("[engine]\ndevices = [0, 2]\n", "d.toml").engine()
                .devices());
        assertEquals("d.toml:2: engine.devices: [1, 1] names a device twice", error("[engine]\ndevices = [1, 1]\n"));
        assertEquals("d.toml:2: engine.devices: -1 is below the minimum of 0", error("[engine]\ndevices = [-1]\n"));
    }
}

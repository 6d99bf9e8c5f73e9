package dev.proofline.daemon.store.postgres;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private PostgreSQL server for the cluster's tests and the lab's {@code bench cluster} (in the
 * daemon's test jar, which the lab uses and the release does not ship): a fresh cluster in
 * a temporary directory (initdb), listening on 127.0.0.1 only, on a free port, with trust
 * authentication and no fsync. It runs the machine's PostgreSQL programs ({@code initdb} and
 * {@code pg_ctl} on the PATH or in {@code /usr/lib/postgresql/<version>/bin}); as root it runs them
 * as the {@code postgres} user, since PostgreSQL refuses to run as root. Not for production data.
 */
public final class LocalPostgres implements AutoCloseable {

    private final Path bin;
    private final Path dir;
    private final Path data;
    private final int port;
    private final boolean asPostgresUser;

    private LocalPostgres(Path bin, Path dir, int port, boolean asPostgresUser) {
        this.bin = bin;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
        this.asPostgresUser = asPostgresUser;
    }

    /** The directory of {@code initdb} and {@code pg_ctl}, or empty with the reason added to {@code why}. */
    public static Optional<Path> programs(List<String> why) {
        List<Path> candidates = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String p : path.split(":")) {
                candidates.add(Path.of(p));
            }
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> s = Files.list(debian)) {
                s.map(v -> v.resolve("bin")).sorted(Comparator.reverseOrder()).forEach(candidates::add);
            } catch (IOException ignored) {
                // not listable: PATH only
            }
        }
        for (Path c : candidates) {
            if (Files.isExecutable(c.resolve("initdb")) && Files.isExecutable(c.resolve("pg_ctl"))) {
                try {
                    return Optional.of(c.resolve("initdb").toRealPath().getParent());
                } catch (IOException e) {
                    return Optional.of(c);
                }
            }
        }
        why.add("no PostgreSQL server programs (initdb, pg_ctl) on the PATH or in /usr/lib/postgresql/*/bin:"
                + " install PostgreSQL (the Debian package postgresql)");
        return Optional.empty();
    }

    /** Creates and starts a server; {@link #url()} names its database {@code proofline}. */
    public static LocalPostgres start(Path bin) throws IOException, InterruptedException {
        boolean root = "root".equals(System.getProperty("user.name"));
        Path dir = Files.createTempDirectory("proofline-pg");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        LocalPostgres pg;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            pg = new LocalPostgres(bin, dir, s.getLocalPort(), root);
        }
        Files.createDirectories(pg.data);
        if (root) {
            UserPrincipal postgres = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
            Files.setOwner(pg.data, postgres);
            Files.setOwner(dir, postgres);
        }
        pg.run(List.of(bin.resolve("initdb").toString(), "-D", pg.data.toString(), "-U", "proofline", "-A", "trust",
                "-E", "UTF8", "--no-sync", "--no-instructions"));
        pg.start();
        try {
            pg.createDatabase("proofline");
        } catch (IOException e) {
            pg.close();
            throw e;
        }
        return pg;
    }

    /** {@code postgresql://proofline@127.0.0.1:<port>/proofline}. */
    public String url() {
        return url("proofline");
    }

    /** The URL of database {@code name} on this server. */
    public String url(String name) {
        return "postgresql://proofline@127.0.0.1:" + port + "/" + name;
    }

    /** Creates an empty database (letters, digits, _) and returns its URL. */
    public String createDatabase(String name) throws IOException {
        if (!name.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("database name '" + name + "': lower-case letters, digits and _");
        }
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres",
                "proofline", "")) {
            c.createStatement().execute("CREATE DATABASE " + name);
        } catch (java.sql.SQLException e) {
            throw new IOException("creating database " + name + ": " + e.getMessage(), e);
        }
        return url(name);
    }

    public int port() {
        return port;
    }

    /** Starts the server (again, after {@link #stop}) on the same port and data. */
    public void start() throws IOException, InterruptedException {
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("server.log").toString(),
                "-w", "-t", "60", "-o", "-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"
                        + " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
                "start"));
    }

    /** Stops the server at once (clients are disconnected), keeping its data. */
    public void stop() throws IOException, InterruptedException {
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-w", "-t", "60", "-m", "fast", "stop"));
    }

    private void run(List<String> command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        if (asPostgresUser) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            String log = "";
            try {
                log = Files.readString(dir.resolve("server.log"));
            } catch (IOException ignored) {
                // no log yet
            }
            throw new IOException(String.join(" ", command) + " failed: " + out.strip()
                    + (log.isEmpty() ? "" : "\nserver log:\n" + log.strip()));
        }
    }

    /** Stops the server and deletes its directory. */
    @Override
    public void close() throws IOException, InterruptedException {
        try {
            if (Files.exists(data.resolve("postmaster.pid"))) {
                stop();
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}

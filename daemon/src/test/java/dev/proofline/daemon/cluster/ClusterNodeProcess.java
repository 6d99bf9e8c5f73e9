package dev.proofline.daemon.cluster;

import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.engine.groth16.SimulatedProofs;
import java.nio.file.Path;

/**
 * A daemon in a process of its own, for the tests that kill one with SIGKILL. Arguments: the
 * config file, then {@code sim} (a prover that holds each partition for an hour, so that the process
 * dies holding its leases) or {@code cpu}. Prints {@code http <address>}, then {@code ready <gRPC address>} when it serves.
 */
public final class ClusterNodeProcess {

    private ClusterNodeProcess() {
    }

    public static void main(String[] args) throws Exception {
        DaemonConfig config = DaemonConfig.read(Path.of(args[0]));
        Daemon d = args[1].equals("sim")
                ? Daemon.start(config, new SimulatedProofs(3_600_000, 0, p -> false), System.err::println)
                : Daemon.start(config, System.err::println);
        System.out.println("http " + d.httpAddress());
        System.out.println("ready " + d.grpcAddress());
        System.out.flush();
        d.awaitTermination();
    }
}

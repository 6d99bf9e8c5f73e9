package dev.proofline.daemon.cluster;

import dev.proofline.daemon.jobs.JobFailure;
import dev.proofline.engine.groth16.Circuits;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The circuits a node proves, each with the SHA-256 of its proving key file: nodes prove a job only
 * against the key it was submitted against. Taken once, when the node is made.
 */
final class KeyDigests {

    /** Circuit id → digest of its key, in circuit order. */
    private final Map<String, String> byCircuit;
    private final List<String> circuits;
    private final List<String> digests;

    private KeyDigests(Map<String, String> byCircuit) {
        this.byCircuit = byCircuit;
        this.circuits = List.copyOf(byCircuit.keySet());
        this.digests = circuits.stream().map(byCircuit::get).toList();
    }

    /** The digests of the keys of every registered circuit (each key file is read now). */
    static KeyDigests of(Circuits registered) {
        Map<String, String> m = new TreeMap<>();
        for (Circuits.Registered c : registered.list()) {
            m.put(c.id(), digest(c.zkey()));
        }
        return new KeyDigests(m);
    }

    /** SHA-256 of a key file, in hex. */
    static String digest(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 20];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + " to take its digest: " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The digest of this node's key for {@code circuit}; NOT_FOUND when the node has no such circuit. */
    String of(String circuit) {
        String d = byCircuit.get(circuit);
        if (d == null) {
            throw new JobFailure(JobFailure.Code.NOT_FOUND, "unknown circuit '" + circuit + "'");
        }
        return d;
    }

    /** The circuit ids, in order; {@link #digests} holds their digests in the same order. */
    List<String> circuits() {
        return circuits;
    }

    List<String> digests() {
        return digests;
    }

    int size() {
        return byCircuit.size();
    }

    /** Whether {@code circuit} is one of this node's, with a key other than {@code digest}. */
    boolean differs(String circuit, String digest) {
        return byCircuit.containsKey(circuit) && !byCircuit.get(circuit).equals(digest);
    }

    /** "circuit digest" per circuit, for the status. */
    List<String> lines() {
        List<String> out = new ArrayList<>();
        byCircuit.forEach((k, v) -> out.add(k + " " + v));
        return out;
    }
}

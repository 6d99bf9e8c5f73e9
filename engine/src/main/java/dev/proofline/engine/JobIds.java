package dev.proofline.engine;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Job ids: {@code job-<number>-<12 random hex digits>}. The number counts the jobs of whoever issues
 * them (an engine, a job store) and keeps them readable in order; the random part makes an id that
 * cannot name a job issued before, when the count starts again: an engine restarted, a store lost,
 * replaced or rolled back by damage. A client that still holds an old id is then told that the job is
 * gone, never given another client's proofs. 48 random bits: two ids with one number collide with
 * probability 2^-48.
 */
public final class JobIds {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    private JobIds() {
    }

    /** The id of the job numbered {@code number}, with a fresh random part. */
    public static String of(long number) {
        return "job-" + number + "-" + suffix();
    }

    /** A fresh random part of an id: 12 hex digits. */
    public static String suffix() {
        byte[] bits = new byte[6];
        RANDOM.nextBytes(bits);
        return HEX.formatHex(bits);
    }
}

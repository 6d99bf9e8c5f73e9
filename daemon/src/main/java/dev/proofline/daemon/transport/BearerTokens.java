package dev.proofline.daemon.transport;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** A client's token as every port checks it: compared in constant time, sent as bearer credentials. */
public final class BearerTokens {

    private BearerTokens() {
    }

    public static boolean constantTimeEquals(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Whether an authorization header carries {@code token} as bearer credentials: the scheme's name in
     * any case (RFC 9110, 11.1: "bearer" is as good as "Bearer"), then one or more spaces, then the token.
     */
    public static boolean matches(String header, String token) {
        String scheme = "Bearer ";
        if (header == null || !header.regionMatches(true, 0, scheme, 0, scheme.length())) {
            return false;
        }
        return constantTimeEquals(header.substring(scheme.length()).stripLeading(), token);
    }
}

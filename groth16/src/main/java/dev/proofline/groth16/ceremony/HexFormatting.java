package dev.proofline.groth16.ceremony;

import java.util.HexFormat;

/** Hashes as snarkjs prints them: four lines of four big-endian 32-bit words in hex. */
public final class HexFormatting {

    private HexFormatting() {
    }

    public static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    /** A 64-byte hash under a title, each line indented with two tabs, as snarkjs's formatHash. */
    public static String hashBlock(String title, byte[] hash) {
        StringBuilder s = new StringBuilder(title);
        String h = hex(hash);
        for (int line = 0; line < 4; line++) {
            s.append("\n\t\t");
            for (int w = 0; w < 4; w++) {
                if (w > 0) {
                    s.append(' ');
                }
                int at = (line * 4 + w) * 8;
                s.append(h, at, at + 8);
            }
        }
        return s.toString();
    }
}

package dev.proofline.r1cs.pce;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.testing.ReaderContract;
import dev.proofline.r1cs.io.FormatException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * PCE files from any bytes: a PCE or a {@link FormatException}. The target writes the right
 * SHA-256 over each mutated file before reading it, so that mutations reach the sizes and matrices
 * behind the checksum (a hostile file can carry a right checksum too). Seeds: PCE files of circom's
 * multiplier circuit, one per curve, in PceFuzzTestInputs/pce.
 */
class PceFuzzTest {

    private static final int CHECKSUMMED_FROM = 8 + 4 + 4 + 32 + 5 * 4 + 3 * 8 + 32;

    @FuzzTest
    void pce(byte[] bytes) throws NoSuchAlgorithmException {
        if (bytes.length >= CHECKSUMMED_FROM) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(bytes, 0, bytes.length - 32);
            System.arraycopy(md.digest(), 0, bytes, bytes.length - 32, 32);
        }
        PairingCurve curve = bytes.length > 12 && bytes[12] == 2 ? PairingCurve.BLS12_381 : PairingCurve.BN254;
        ReaderContract.returnsOrRejects(() -> PceFile.read(bytes, "fuzz.pce", curve, null), FormatException.class);
    }
}

package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.testing.Node;
import dev.proofline.groth16.testing.CircomFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trusted setup of docs/setup.md as written: every line of its {@code sh} blocks, in order, in a
 * folder that holds circuit.r1cs (the multiplier fixture's); its {@code snarkjs} lines (the other
 * party's steps) run by snarkjs 0.7.6, and {@code <beacon hash, hex>} is a hash of 32 bytes. Each
 * command exits 0, and snarkjs accepts the final keys the page's two routes make.
 */
class SetupDocCommandsTest {

    private static final Pattern SH_BLOCK = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);
    /** A word that names a file in the folder: it has a dot or an underscore (pot_0.ptau, challenge_2). */
    private static final Pattern FILE = Pattern.compile("[\\w-]*[._][\\w.-]*");
    private static final String BEACON = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    @TempDir
    Path work;

    @Test
    void theCeremonyRunsAsWrittenAndSnarkjsAcceptsItsKeys() throws Exception {
        Files.copy(CircomFixtures.build(CircomFixtures.BN128, "multiplier").r1cs(), work.resolve("circuit.r1cs"));
        int proofline = 0;
        int snarkjs = 0;
        for (String line : commandLines(Node.repositoryRoot().resolve("docs/setup.md"))) {
            boolean ours = line.startsWith("./proofline ");
            List<String> args = new ArrayList<>();
            for (String word : CliParse.words(line.substring(line.indexOf(' ') + 1))) {
                args.add(word.equals("<beacon hash, hex>") ? BEACON
                        : !word.startsWith("-") && FILE.matcher(word).matches() ? work.resolve(word).toString() : word);
            }
            if (ours) {
                CliRun run = CliRun.of(args.toArray(String[]::new));
                assertEquals(0, run.code(), () -> line + "\n" + run.err());
                proofline++;
            } else {
                Node.snarkjs(args.toArray(String[]::new));   // throws unless it exits 0
                snarkjs++;
            }
        }
        assertTrue(proofline >= 15 && snarkjs >= 2, "docs/setup.md's commands: " + proofline + " + " + snarkjs);

        for (String key : List.of("circuit_final.zkey", "circuit_0003.zkey")) {
            Node.snarkjs("zkey", "verify", work.resolve("circuit.r1cs").toString(),
                    work.resolve("pot_final.ptau").toString(), work.resolve(key).toString());
        }
    }

    /** The lines of the document's {@code sh} blocks that run a command, proofline's or snarkjs's, in order. */
    private static List<String> commandLines(Path doc) throws Exception {
        Matcher m = SH_BLOCK.matcher(Files.readString(doc));
        List<String> lines = new ArrayList<>();
        while (m.find()) {
            m.group(1).lines().map(String::strip).filter(l -> l.startsWith("./proofline ") || l.startsWith("snarkjs "))
                    .forEach(lines::add);
        }
        return lines;
    }
}

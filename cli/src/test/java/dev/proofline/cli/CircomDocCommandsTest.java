package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.testing.Node;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.groth16.testing.CircomFixtures.SnarkjsRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands of docs/circom.md's {@code sh} blocks run as written, in order, in a folder that holds
 * the files they name (circuit.wasm, input.json, circuit.zkey, circuit.r1cs: the multiplier fixture's):
 * each exits 0, the proofs they write verify in snarkjs, and what they print is what snarkjs prints.
 */
class CircomDocCommandsTest {

    private static final Pattern SH_BLOCK = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);
    /** A word that names a file in the folder the commands run in. */
    private static final Pattern FILE = Pattern.compile("[\\w-]+\\.(wasm|json|zkey|r1cs|wtns|sol)");

    @TempDir
    Path work;

    @Test
    void theCommandsRunAsWrittenAndWriteWhatSnarkjsWrites() throws Exception {
        Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        Files.copy(fx.wasm(), work.resolve("circuit.wasm"));
        Files.copy(fx.input(), work.resolve("input.json"));
        Files.copy(fx.zkey(), work.resolve("circuit.zkey"));
        Files.copy(fx.r1cs(), work.resolve("circuit.r1cs"));

        Map<String, CliRun> runs = new LinkedHashMap<>();
        for (String line : commandLines(Node.repositoryRoot().resolve("docs/circom.md"))) {
            List<String> args = new ArrayList<>();
            for (String word : CliParse.words(line.substring("./proofline ".length()))) {
                args.add(FILE.matcher(word).matches() ? work.resolve(word).toString() : word);
            }
            CliRun run = CliRun.of(args.toArray(String[]::new));
            assertEquals(0, run.code(), () -> line + "\n" + run.err());
            runs.put(line.substring("./proofline ".length()), run);
        }
        assertTrue(runs.size() >= 6, "docs/circom.md's commands: " + runs.keySet());

        Path proof = work.resolve("proof.json");
        Path pub = work.resolve("public.json");
        assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), pub, proof), "snarkjs accepts the docs' proof");
        assertEquals(Files.readString(fx.publicJson()), Files.readString(pub));

        SnarkjsRun info = CircomFixtures.snarkjs("r1cs", "info", work.resolve("circuit.r1cs").toString());
        assertEquals(info.messages("INFO"), printed(runs, "r1cs info").lines().toList());
        assertTrue(printed(runs, "wtns check").endsWith("WITNESS IS CORRECT\n"), printed(runs, "wtns check"));
        SnarkjsRun calldata = CircomFixtures.snarkjs("zkey", "export", "soliditycalldata", pub.toString(),
                proof.toString());
        assertEquals(calldata.stdout(), printed(runs, "zkey export soliditycalldata"));
        assertTrue(Files.readString(work.resolve("verifier.sol")).contains("contract Groth16Verifier"));
    }

    /** What the command whose line starts with {@code command} printed on stdout. */
    private static String printed(Map<String, CliRun> runs, String command) {
        return runs.entrySet().stream().filter(e -> e.getKey().startsWith(command + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("docs/circom.md runs no " + command)).getValue().out();
    }

    /** The {@code ./proofline} lines of the document's {@code sh} blocks, in order. */
    private static List<String> commandLines(Path doc) throws Exception {
        Matcher m = SH_BLOCK.matcher(Files.readString(doc));
        List<String> lines = new ArrayList<>();
        while (m.find()) {
            m.group(1).lines().map(String::strip).filter(l -> l.startsWith("./proofline ")).forEach(lines::add);
        }
        return lines;
    }
}

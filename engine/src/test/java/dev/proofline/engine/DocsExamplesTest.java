package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.proofline.algebra.testing.Node;
import dev.proofline.groth16.testing.CircomFixtures;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docs' Java blocks are programs: every {@code ```java} block of {@code docs/embedding.md} and
 * {@code docs/engine.md} is one public class with its imports, compiled here exactly as it is written
 * (against the modules' classes, no flags), then run on the circom fixtures: each example's output
 * shows that its proofs verify.
 */
class DocsExamplesTest {

    private static final List<String> DOCS = List.of("docs/embedding.md", "docs/engine.md");
    private static final Pattern BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern PUBLIC_CLASS = Pattern.compile("^public class (\\w+)", Pattern.MULTILINE);

    /** One block: the doc it is in and the class it declares. */
    private record Example(String doc, String className, String source) {
    }

    @TempDir
    static Path classes;

    private static Map<String, Example> examples;
    private static String compileErrors;

    @BeforeAll
    static void compileTheDocsBlocks() throws IOException {
        examples = new LinkedHashMap<>();
        for (String doc : DOCS) {
            String text = Files.readString(Node.repositoryRoot().resolve(doc));
            Matcher block = BLOCK.matcher(text);
            int n = 0;
            while (block.find()) {
                n++;
                Matcher name = PUBLIC_CLASS.matcher(block.group(1));
                if (!name.find()) {
                    fail(doc + ": java block " + n + " declares no public class: each block is a whole source file");
                }
                Example e = new Example(doc, name.group(1), block.group(1));
                if (examples.put(e.className(), e) != null) {
                    fail(doc + ": class " + e.className() + " is declared by two blocks");
                }
            }
            assertTrue(n > 0, doc + " has no java block");
        }
        Path sources = Files.createDirectories(classes.resolve("src"));
        List<File> files = new ArrayList<>();
        for (Example e : examples.values()) {
            Path f = sources.resolve(e.className() + ".java");
            Files.writeString(f, e.source());
            files.add(f.toFile());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            // the test's class path as surefire hands it to the forked JVM (which itself sees a manifest jar)
            String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            List<String> options = List.of("--release", "25", "-Xlint:all", "-Werror", "-proc:none",
                    "-classpath", classPath, "-d", classes.toString());
            boolean ok = javac.getTask(null, fm, diagnostics, options, null, fm.getJavaFileObjectsFromFiles(files))
                    .call();
            compileErrors = ok ? null : diagnostics.getDiagnostics().stream()
                    .map(d -> d.getSource().getName().replaceAll(".*/", "") + ":" + d.getLineNumber() + ": "
                            + d.getMessage(null))
                    .collect(Collectors.joining("\n"));
        }
    }

    @Test
    void everyJavaBlockOfTheDocsCompilesWithoutWarnings() {
        assertEquals(null, compileErrors, "the docs' java blocks do not compile as written");
        assertTrue(examples.keySet().containsAll(List.of("ProveWithZkey", "VerifyFiles", "ProveOnEngine",
                "PoseidonPreimageProof", "EngineJobs")), "examples found: " + examples.keySet());
    }

    @Test
    void theExamplesRunAndTheirProofsVerify(@TempDir Path out) throws Exception {
        assertEquals(null, compileErrors, "the docs' java blocks do not compile as written");
        CircomFixtures.Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");

        List<String> lines = run("ProveWithZkey", fx.zkey(), fx.wtns(), out);
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).endsWith(" OK"), lines.toString());
        assertTrue(CircomFixtures.snarkjsVerifies(out.resolve("verification_key.json"), out.resolve("public.json"),
                out.resolve("proof.json")), "snarkjs rejects the files ProveWithZkey wrote");
        assertEquals(Files.readString(fx.publicJson()), Files.readString(out.resolve("public.json")),
                "public.json as snarkjs wrote it for the same witness");

        // snarkjs's own proof, then the one just written, against snarkjs's verification key
        assertEquals(List.of("OK"), run("VerifyFiles", fx.vk(), fx.publicJson(), fx.proof()));
        assertEquals(List.of("OK"), run("VerifyFiles", fx.vk(), out.resolve("public.json"), out.resolve("proof.json")));
        // and a proof of other signals is rejected, with the reason
        Path otherSignals = out.resolve("other-public.json");
        Files.writeString(otherSignals, Files.readString(fx.publicJson()).replaceFirst("\"(\\d)", "\"1$1"));
        List<String> rejected = run("VerifyFiles", fx.vk(), otherSignals, fx.proof());
        assertTrue(rejected.size() == 1 && rejected.get(0).startsWith("Invalid proof: "), rejected.toString());

        lines = run("ProveOnEngine", fx.zkey(), fx.wasm(), fx.wtns(), fx.input());
        assertEquals(2, lines.size(), lines.toString());
        String signals = Files.readString(fx.publicJson()).replaceAll("[\\s\"]", "").replace(",", ", ");
        for (String line : lines) {
            assertEquals(signals + " true", line, "both partitions, from the witness file and from the inputs");
        }

        lines = run("PoseidonPreimageProof");
        assertEquals(3, lines.size(), lines.toString());
        for (String line : lines) {
            assertTrue(line.endsWith("] true"), lines.toString());
        }
        assertFalse(lines.get(1).equals(lines.get(2)), "two instances, two public hashes: " + lines);

        lines = run("EngineJobs", fx.zkey(), fx.wasm(), fx.r1cs(), fx.wtns(), fx.input());
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("2 proofs; partition 0: Timings["), lines.toString());

        List<String> notRun = new ArrayList<>(examples.keySet());
        notRun.removeAll(List.of("ProveWithZkey", "VerifyFiles", "ProveOnEngine", "PoseidonPreimageProof",
                "EngineJobs"));
        assertEquals(List.of(), notRun, "examples in the docs that this test does not run yet");
    }

    /** Runs the example's main with {@code args} in this JVM and returns what it printed, line by line. */
    private static List<String> run(String className, Object... args) throws Exception {
        String[] argv = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            argv[i] = args[i].toString();
        }
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                DocsExamplesTest.class.getClassLoader())) {
            Class<?> main = loader.loadClass(className);
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            main.getMethod("main", String[].class).invoke(null, (Object) argv);
        } catch (InvocationTargetException e) {
            throw new AssertionError(className + " failed", e.getCause());
        } finally {
            System.setOut(stdout);
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        System.out.print(className + ":\n" + text);
        return text.lines().toList();
    }
}

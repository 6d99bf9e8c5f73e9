package dev.proofline.algebra.testing;

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
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The docs' Java blocks as programs: each {@code ```java} block of a doc is one public class with its
 * imports, compiled exactly as it is written (against the test's class path, no flags) and run in this
 * JVM. Several modules' tests use it, each for the blocks its class path can compile.
 */
public final class DocExamples {

    private static final Pattern BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern PUBLIC_CLASS = Pattern.compile("^public class (\\w+)", Pattern.MULTILINE);

    /** One block: the doc it is in, the class it declares, its text. */
    public record Example(String doc, String className, String source) {
        /** Whether the block imports from {@code pkg} (e.g. {@code dev.proofline.api}). */
        public boolean imports(String pkg) {
            return source.contains("\nimport " + pkg + ".") || source.startsWith("import " + pkg + ".");
        }
    }

    private DocExamples() {
    }

    /**
     * The java blocks of {@code docs} (paths from the repository root) that {@code which} takes, by class
     * name; fails on a block without a public class, a class declared twice, or a doc without blocks.
     */
    public static Map<String, Example> read(List<String> docs, Predicate<Example> which) throws IOException {
        Map<String, Example> examples = new LinkedHashMap<>();
        for (String doc : docs) {
            Matcher block = BLOCK.matcher(Files.readString(Node.repositoryRoot().resolve(doc)));
            int n = 0;
            while (block.find()) {
                n++;
                Matcher name = PUBLIC_CLASS.matcher(block.group(1));
                if (!name.find()) {
                    throw new AssertionError(doc + ": java block " + n + " declares no public class: each block is a"
                            + " whole source file");
                }
                Example e = new Example(doc, name.group(1), block.group(1));
                if (which.test(e) && examples.put(e.className(), e) != null) {
                    throw new AssertionError(doc + ": class " + e.className() + " is declared by two blocks");
                }
            }
            if (n == 0) {
                throw new AssertionError(doc + " has no java block");
            }
        }
        return examples;
    }

    /**
     * Compiles {@code examples} into {@code classes} with every lint warning an error, against this test's
     * class path; returns null, or the compiler's messages.
     */
    public static String compile(Iterable<Example> examples, Path classes) throws IOException {
        Path sources = Files.createDirectories(classes.resolve("src"));
        List<File> files = new ArrayList<>();
        for (Example e : examples) {
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
            return ok ? null : diagnostics.getDiagnostics().stream()
                    .map(d -> d.getSource().getName().replaceAll(".*/", "") + ":" + d.getLineNumber() + ": "
                            + d.getMessage(null))
                    .collect(Collectors.joining("\n"));
        }
    }

    /**
     * Runs {@code className}'s main (compiled into {@code classes}) with {@code args} in this JVM, under a
     * class loader whose parent is {@code parent}; returns what it printed, line by line.
     */
    public static List<String> run(Path classes, ClassLoader parent, String className, Object... args)
            throws Exception {
        String[] argv = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            argv[i] = args[i].toString();
        }
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, parent)) {
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

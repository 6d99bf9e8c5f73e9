package dev.proofline.cli;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_String;
import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_void;
import static java.lang.constant.ConstantDescs.INIT_NAME;
import static java.lang.constant.ConstantDescs.MTD_void;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.Label;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.reflect.AccessFlag;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build's rewrite of Java 5 class files ({@code src/build/RetargetOldClasses.java}, run on picocli's jar
 * so that the JVM's ahead-of-time cache holds it), run as the build runs it: the rewritten classes carry
 * version 52, pass the JVM's verifier (which, from version 51 on, needs the stack maps the rewrite adds)
 * and behave as before; signed jars and jars with no old class are left alone.
 */
class RetargetOldClassesTest {

    private static final ClassDesc BASE = ClassDesc.of("t.Base");
    private static final ClassDesc LEFT = ClassDesc.of("t.Left");
    private static final ClassDesc RIGHT = ClassDesc.of("t.Right");

    @TempDir
    Path dir;

    @Test
    void rewritesOldClassesThatThenVerifyAndRun() throws Exception {
        Path jar = dir.resolve("old.jar");
        writeJar(jar, oldClasses(), Map.of());
        String out = run(jar);
        assertTrue(out.contains("4 class files rewritten to version 52"), out);
        try (JarFile j = new JarFile(jar.toFile())) {
            for (String c : oldClasses().keySet()) {
                byte[] b = j.getInputStream(j.getEntry(c)).readAllBytes();
                assertEquals(52, (b[6] & 0xff) << 8 | b[7] & 0xff, c);
            }
            assertTrue(new String(j.getInputStream(j.getEntry("META-INF/RETARGETED.txt")).readAllBytes(),
                    StandardCharsets.UTF_8).contains("unchanged"));
        }
        // Pick.pick merges a Left and a Right into one local: its frame there needs their common supertype,
        // Base, which only the jar defines
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> pick = Class.forName("t.Pick", true, loader);
            assertEquals("Left", pick.getMethod("pick", boolean.class).invoke(null, true));
            assertEquals("Right", pick.getMethod("pick", boolean.class).invoke(null, false));
        }

        assertLeftAlone(jar, "no class below version 50, left as it is");
    }

    @Test
    void leavesSignedJarsAlone() throws Exception {
        Path jar = dir.resolve("signed.jar");
        writeJar(jar, oldClasses(), Map.of("META-INF/SIGNER.SF", "Signature-Version: 1.0\n".getBytes(StandardCharsets.UTF_8)));
        assertLeftAlone(jar, "signed, left as it is");
    }

    /** Runs the tool on the jar: it says {@code why} and leaves the jar's bytes as they were. */
    private static void assertLeftAlone(Path jar, String why) throws IOException, InterruptedException {
        byte[] before = Files.readAllBytes(jar);
        String out = run(jar);
        assertTrue(out.contains(why), out);
        assertArrayEquals(before, Files.readAllBytes(jar));
    }

    @Test
    void picocliRewrittenLoadsAndVerifiesEveryClass() throws Exception {
        Path original = Path.of(picocli.CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path jar = dir.resolve("picocli.jar");
        Files.copy(original, jar);
        String out = run(jar);
        assertTrue(out.contains("class files rewritten to version 52"), out);
        List<String> failed = new ArrayList<>();
        int loaded = 0;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()},
                ClassLoader.getPlatformClassLoader()); JarFile j = new JarFile(jar.toFile())) {
            for (JarEntry e : j.stream().toList()) {
                String n = e.getName();
                if (n.endsWith(".class") && !n.startsWith("META-INF/") && !n.endsWith("module-info.class")) {
                    try {
                        Class.forName(n.substring(0, n.length() - 6).replace('/', '.'), true, loader);   // links: verifies
                        loaded++;
                    } catch (LinkageError | ClassNotFoundException ex) {
                        failed.add(n + ": " + ex);
                    }
                }
            }
            assertEquals(List.of(), failed);
            assertTrue(loaded > 200, "only " + loaded + " classes");
            // and it still parses a command line
            Class<?> cl = Class.forName("picocli.CommandLine", true, loader);
            Class<?> spec = Class.forName("picocli.CommandLine$Model$CommandSpec", true, loader);
            Class<?> optionSpec = Class.forName("picocli.CommandLine$Model$OptionSpec", true, loader);
            Object s = spec.getMethod("create").invoke(null);
            Object builder = optionSpec.getMethod("builder", String.class, String[].class).invoke(null, "-n", new String[0]);
            Method type = builder.getClass().getMethod("type", Class.class);
            type.setAccessible(true);   // declared by a package-private superclass of the builder
            type.invoke(builder, int.class);
            spec.getMethod("addOption", optionSpec).invoke(s, builder.getClass().getMethod("build").invoke(builder));
            Object line = cl.getConstructor(Object.class).newInstance(s);
            Object result = cl.getMethod("parseArgs", String[].class).invoke(line, (Object) new String[] {"-n", "42"});
            Object value = result.getClass().getMethod("matchedOptionValue", String.class, Object.class)
                    .invoke(result, "-n", -1);
            assertEquals(42, value);
        }
    }

    /** Runs the build's tool on the jar with this JVM's launcher, as the build does; returns its output. */
    private static String run(Path jar) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process p = new ProcessBuilder(java, "src/build/RetargetOldClasses.java", jar.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    /** Four version-49 classes without stack maps: Base, Left and Right extending it, and Pick. */
    private static Map<String, byte[]> oldClasses() {
        ClassFile cf = ClassFile.of(ClassFile.StackMapsOption.DROP_STACK_MAPS);
        Map<String, byte[]> classes = new LinkedHashMap<>();
        classes.put("t/Base.class", cf.build(BASE, cb -> plain(cb, CD_Object)));
        classes.put("t/Left.class", cf.build(LEFT, cb -> plain(cb, BASE)));
        classes.put("t/Right.class", cf.build(RIGHT, cb -> plain(cb, BASE)));
        ClassDesc pick = ClassDesc.of("t.Pick");
        classes.put("t/Pick.class", cf.build(pick, cb -> {
            plain(cb, CD_Object);
            cb.withMethodBody("pick", MethodTypeDesc.of(CD_String, CD_boolean),
                    ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, code -> {
                        Label right = code.newLabel();
                        Label join = code.newLabel();
                        code.iload(0).ifeq(right)
                                .new_(LEFT).dup().invokespecial(LEFT, INIT_NAME, MTD_void).astore(1)
                                .goto_(join)
                                .labelBinding(right)
                                .new_(RIGHT).dup().invokespecial(RIGHT, INIT_NAME, MTD_void).astore(1)
                                .labelBinding(join)
                                .aload(1)
                                .invokevirtual(CD_Object, "getClass", MethodTypeDesc.of(ClassDesc.of("java.lang.Class")))
                                .invokevirtual(ClassDesc.of("java.lang.Class"), "getSimpleName", MethodTypeDesc.of(CD_String))
                                .areturn();
                    });
        }));
        return classes;
    }

    /** Version 49, public, the given superclass, a public no-argument constructor. */
    private static void plain(java.lang.classfile.ClassBuilder cb, ClassDesc superclass) {
        cb.withVersion(49, 0).withFlags(AccessFlag.PUBLIC, AccessFlag.SUPER).withSuperclass(superclass)
                .withMethodBody(INIT_NAME, MTD_void, ClassFile.ACC_PUBLIC,
                        code -> code.aload(0).invokespecial(superclass, INIT_NAME, MethodTypeDesc.of(CD_void)).return_());
    }

    private static void writeJar(Path jar, Map<String, byte[]> classes, Map<String, byte[]> extra) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Map<String, byte[]> m : List.of(extra, classes)) {
                for (Map.Entry<String, byte[]> e : m.entrySet()) {
                    out.putNextEntry(new JarEntry(e.getKey()));
                    out.write(e.getValue());
                    out.closeEntry();
                }
            }
        }
    }
}

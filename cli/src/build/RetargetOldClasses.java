import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Rewrites, in place, the class files of a jar whose class-file version is below 50 (Java 6) to
 * version 52 (Java 8), with the stack maps that version carries; the code itself is unchanged. Run by
 * the CLI's build on the copied picocli jar (picocli targets Java 5):
 * {@code java src/build/RetargetOldClasses.java target/lib/picocli-4.7.7.jar}.
 *
 * <p>Why: the JVM's ahead-of-time cache (JDK 25) leaves out classes older than version 50 once they
 * are linked ("Skipping ...: Old class has been linked"), so every one-off command loaded, verified
 * and interpreted picocli's classes from the jar: about 70 ms of a cold proof on 2 cores. A jar that
 * is signed, or that has no class below version 50, is left as it is. The rewritten jar carries
 * {@code META-INF/RETARGETED.txt} saying what was changed (picocli's licence, Apache 2.0, asks for it).
 */
public final class RetargetOldClasses {

    private static final int TARGET_MAJOR = ClassFile.JAVA_8_VERSION;
    private static final String NOTICE = "META-INF/RETARGETED.txt";

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: java RetargetOldClasses.java JAR...");
            System.exit(2);
        }
        for (String a : args) {
            Path jar = Path.of(a);
            int n = retarget(jar);
            System.out.println(jar.getFileName() + ": " + switch (n) {
                case SIGNED -> "signed, left as it is";
                case 0 -> "no class below version 50, left as it is";
                default -> n + " class files rewritten to version " + TARGET_MAJOR;
            });
        }
    }

    /** What {@link #retarget} returns for a signed jar, which it leaves as it is. */
    private static final int SIGNED = -1;

    /** Rewrites the jar's old class files; returns how many (0 or {@link #SIGNED}: the jar is untouched). */
    static int retarget(Path jar) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        Map<String, Long> times = new LinkedHashMap<>();
        Manifest manifest;
        try (JarInputStream in = new JarInputStream(Files.newInputStream(jar), false)) {
            manifest = in.getManifest();
            for (JarEntry e; (e = in.getNextJarEntry()) != null; ) {
                entries.put(e.getName(), in.readAllBytes());
                times.put(e.getName(), e.getTime());
            }
        }
        for (String name : entries.keySet()) {
            String upper = name.toUpperCase(java.util.Locale.ROOT);
            if (upper.startsWith("META-INF/") && (upper.endsWith(".SF") || upper.endsWith(".RSA")
                    || upper.endsWith(".DSA") || upper.endsWith(".EC"))) {
                return SIGNED;   // a rewritten class would fail its digest
            }
        }
        // the jar's own classes for the stack maps' common supertypes, then the JDK's
        ClassHierarchyResolver own = ClassHierarchyResolver.ofResourceParsing(desc -> {
            String d = desc.descriptorString();
            byte[] b = entries.get(d.substring(1, d.length() - 1) + ".class");
            return b == null ? null : new ByteArrayInputStream(b);
        });
        ClassFile cf = ClassFile.of(
                ClassFile.ClassHierarchyResolverOption.of(own.orElse(ClassHierarchyResolver.defaultResolver())),
                ClassFile.StackMapsOption.GENERATE_STACK_MAPS);
        ClassTransform transform = ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)
                .andThen((builder, element) -> {
                    if (element instanceof ClassFileVersion) {
                        builder.withVersion(TARGET_MAJOR, 0);
                    } else {
                        builder.with(element);
                    }
                });
        int rewritten = 0;
        for (Map.Entry<String, byte[]> e : entries.entrySet()) {
            byte[] b = e.getValue();
            if (e.getKey().endsWith(".class") && !e.getKey().startsWith("META-INF/") && major(b) < 50) {
                e.setValue(cf.transformClass(cf.parse(b), transform));
                rewritten++;
            }
        }
        if (rewritten == 0) {
            return 0;
        }
        entries.put(NOTICE, ("The class files of this jar below class-file version 50 were rewritten to version "
                + TARGET_MAJOR + " with stack maps by Proofline's build (cli/src/build/RetargetOldClasses.java),\n"
                + "so that the JVM's ahead-of-time cache can hold them. Their code, names and behaviour are unchanged.\n")
                .getBytes(StandardCharsets.UTF_8));
        Path tmp = Files.createTempFile(jar.toAbsolutePath().getParent(), jar.getFileName().toString(), ".tmp");
        try {
            try (OutputStream os = Files.newOutputStream(tmp);
                    JarOutputStream out = manifest == null ? new JarOutputStream(os) : new JarOutputStream(os, manifest)) {
                for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                    JarEntry entry = new JarEntry(e.getKey());
                    Long t = times.get(e.getKey());
                    if (t != null && t >= 0) {
                        entry.setTime(t);
                    }
                    out.putNextEntry(entry);
                    out.write(e.getValue());
                    out.closeEntry();
                }
            }
            Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return rewritten;
    }

    private static int major(byte[] classFile) {
        return classFile.length < 8 ? Integer.MAX_VALUE : (classFile[6] & 0xff) << 8 | classFile[7] & 0xff;
    }

    private RetargetOldClasses() {
    }
}

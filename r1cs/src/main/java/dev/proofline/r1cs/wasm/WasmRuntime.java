package dev.proofline.r1cs.wasm;

import java.util.List;

/**
 * Whether the WebAssembly runtime that runs circom's witness generators ({@link CircomWasm}) is on the
 * class path: Chicory (its runtime, parser and compiler to JVM bytecode) and the ASM library the compiler
 * writes classes with. They come with {@code proofline-r1cs} as dependencies; an application that
 * excluded them (it proves {@code .wtns} witnesses only) or that assembled its class path by hand learns
 * it here, with the artifact to add, where a witness generator is first registered or loaded, instead
 * of from a {@link NoClassDefFoundError} on a worker thread when the first input arrives.
 *
 * <p>Kept apart from {@link CircomWasm} on purpose: that class cannot even be linked without Chicory
 * (its exception handlers name Chicory's types), so the check must run before it is touched.
 */
public final class WasmRuntime {

    /** One class of each artifact the witness generator needs. */
    private record Part(String className, String artifact) {
    }

    private static final List<Part> PARTS = List.of(
            new Part("com.dylibso.chicory.runtime.Instance", "com.dylibso.chicory:runtime"),
            new Part("com.dylibso.chicory.wasm.Parser", "com.dylibso.chicory:wasm"),
            new Part("com.dylibso.chicory.compiler.MachineFactoryCompiler", "com.dylibso.chicory:compiler"),
            new Part("org.objectweb.asm.ClassWriter", "org.ow2.asm:asm"),
            new Part("org.objectweb.asm.commons.InstructionAdapter", "org.ow2.asm:asm-commons"),
            new Part("org.objectweb.asm.util.CheckClassAdapter", "org.ow2.asm:asm-util"));

    private WasmRuntime() {
    }

    /** The artifacts of the runtime that this class's loader cannot find (empty when it is complete). */
    public static List<String> missing() {
        ClassLoader loader = WasmRuntime.class.getClassLoader();
        return PARTS.stream().filter(p -> !present(p.className(), loader)).map(Part::artifact).toList();
    }

    /**
     * Throws an {@link IllegalStateException} naming the missing artifacts when the runtime is not
     * complete; {@code user} says what needed it (e.g. "circuit 'poseidon': its circuit.wasm").
     */
    public static void require(String user) {
        List<String> missing = missing();
        if (!missing.isEmpty()) {
            throw new IllegalStateException(user + " needs the runtime of circom's witness generators, which is"
                    + " not on the class path: missing " + String.join(", ", missing) + ". They are dependencies of"
                    + " dev.proofline:proofline-r1cs: remove the exclusion that dropped them (or add them to a class"
                    + " path made by hand), or give the circuit's partitions as witnesses (.wtns) instead of inputs.");
        }
    }

    private static boolean present(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}

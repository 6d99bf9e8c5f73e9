package dev.proofline.r1cs.wasm;

import com.dylibso.chicory.compiler.Cache;
import com.dylibso.chicory.compiler.InterpreterFallback;
import com.dylibso.chicory.compiler.MachineFactoryCompiler;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Machine;
import com.dylibso.chicory.wasm.WasmModule;
import com.dylibso.chicory.wasm.types.ExternalType;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;

/**
 * Compiles a witness generator's WebAssembly module to JVM classes with Chicory's compiler, once per
 * load: the functions too large for one JVM method are interpreted instead, and the classes are kept in
 * a {@link CompiledClassCache} when a cache directory is given.
 */
final class WasmCompiler {

    /**
     * Functions of more WebAssembly instructions than this do not fit in one JVM method (64 KiB of
     * bytecode): they are interpreted from the start. Left to Chicory, it would first try to compile
     * them, which takes about as long again as compiling the whole module (circomlib's Poseidon
     * constants: 128k instructions in one function; its 19k-instruction ones do fit).
     */
    private static final int HUGE_FUNCTION = 50_000;

    private WasmCompiler() {
    }

    /**
     * The machines that run {@code module}'s code in an instance, compiled or taken from the cache in
     * {@code cacheDir} (null: no cache). A damaged cache entry is compiled afresh.
     *
     * @throws com.dylibso.chicory.wasm.ChicoryException when the module cannot be compiled
     */
    static Function<Instance, Machine> compile(WasmModule module, Path cacheDir) {
        Cache cache = CompiledClassCache.in(cacheDir).orElse(null);
        Set<Integer> huge = new HashSet<>();
        int imported = module.importSection().count(ExternalType.FUNCTION);
        for (int i = 0; i < module.codeSection().functionBodyCount(); i++) {
            if (module.codeSection().getFunctionBody(i).instructions().size() > HUGE_FUNCTION) {
                huge.add(imported + i);
            }
        }
        if (!huge.isEmpty()) {
            try {
                return compiler(module, cache).withInterpreterFallback(InterpreterFallback.FAIL)
                        .withInterpretedFunctions(huge).compile();
            } catch (RuntimeException e) {
                // another function is too large (or the cache entry is damaged): let Chicory find them
            }
        }
        if (cache != null) {
            try {
                return compiler(module, cache).withInterpreterFallback(InterpreterFallback.SILENT).compile();
            } catch (RuntimeException e) {
                // an unreadable or damaged cache entry: compile afresh
            }
        }
        return compiler(module, null).withInterpreterFallback(InterpreterFallback.SILENT).compile();
    }

    private static MachineFactoryCompiler.Builder compiler(WasmModule module, Cache cache) {
        MachineFactoryCompiler.Builder b = MachineFactoryCompiler.builder(module);
        return cache == null ? b : b.withCache(cache);
    }
}

package dev.proofline.r1cs.wasm;

import com.dylibso.chicory.runtime.ByteArrayMemory;
import com.dylibso.chicory.runtime.ExportFunction;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Machine;
import com.dylibso.chicory.runtime.Memory;
import com.dylibso.chicory.wasm.ChicoryException;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import com.dylibso.chicory.wasm.types.FunctionType;
import com.dylibso.chicory.wasm.types.MemoryLimits;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.FormatException;
import dev.proofline.r1cs.io.InputFiles;
import dev.proofline.r1cs.wasm.WitnessException.Reason;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A circom 2 witness generator ({@code circuit.wasm}, made by {@code circom --wasm}) loaded and
 * compiled to JVM bytecode once, computing witnesses in-process as snarkjs's
 * {@code wtns calculate} does (same values, so {@link dev.proofline.r1cs.io.WtnsFile#write} gives
 * the same bytes).
 *
 * <p>The module runs on Chicory, a WebAssembly runtime in pure Java, whose compiler turns it into
 * JVM classes when loaded (functions too large for one JVM method, such as circomlib's Poseidon
 * constant tables, are interpreted instead). The compilation is {@code WasmCompiler}'s, its cache on disk
 * {@code CompiledClassCache}'s, and the functions the module imports from circom's runtime
 * {@code RuntimeImports}'s.
 *
 * <p>Thread-safe: a loaded {@code CircomWasm} is immutable, and each {@link #calculate} runs in a
 * fresh WebAssembly instance (its own memory; a millisecond or so to create), so one
 * {@code CircomWasm} may compute many witnesses, on any number of threads at once.
 *
 * <p>Errors: a file that is not a circom 2 witness generator, or is compiled for a prime other
 * than the scalar field of BN254 or BLS12-381, is a {@link FormatException}; an input that does
 * not fit the circuit, or that the circuit rejects, is a {@link WitnessException}; both are
 * {@link IllegalArgumentException}s. A trap of the WebAssembly code that circom's runtime did not
 * report (a bug in the generator) is an {@link IllegalStateException}.
 */
public final class CircomWasm {

    /** The exports of circom 2's witness_calculator ABI that a witness needs. */
    private static final List<String> REQUIRED_EXPORTS = List.of("getVersion", "getFieldNumLen32", "getRawPrime",
            "readSharedRWMemory", "writeSharedRWMemory", "init", "setInputSignal", "getInputSize",
            "getWitnessSize", "getWitness");

    private final Path name;
    /** circom's symbol file beside the wasm, which names the inputs in errors; null when there is none. */
    private final Path symbols;
    private final WasmModule module;
    private final Function<Instance, Machine> machines;
    private final Map<String, FunctionType> importTypes;
    private final Set<String> exports;
    private final int major;
    private final int minor;
    private final int patch;
    private final int n32;
    private final BigInteger prime;
    private final PairingCurve curve;
    private final int witnessSize;
    private final int inputCount;
    private final boolean sharedMemoryReadable;

    /** The most 64 KiB pages of memory an instance may have: its bytes are one Java array. */
    static final int MAX_MEMORY_PAGES = Integer.MAX_VALUE / 65536;

    private CircomWasm(Path name, byte[] bytes, Path cacheDir, Path symbols) {
        this.name = name;
        this.symbols = symbols;
        if (bytes.length < 8 || bytes[0] != 0 || bytes[1] != 'a' || bytes[2] != 's' || bytes[3] != 'm') {
            throw new FormatException(name, null, "not a WebAssembly module (it does not start with \\0asm);"
                    + " expected circom's circuit.wasm");
        }
        try {
            module = Parser.parse(bytes);
        } catch (ChicoryException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new FormatException(name, null, "not a valid WebAssembly module: " + e.getMessage(), e);
        }
        if (module.memorySection().isPresent() && module.memorySection().get().memoryCount() > 0) {
            int pages = module.memorySection().get().getMemory(0).limits().initialPages();
            if (pages < 0 || pages > MAX_MEMORY_PAGES) {
                throw new FormatException(name, "memory", "declares " + Integer.toUnsignedString(pages)
                        + " pages of 64 KiB to start with; at most " + MAX_MEMORY_PAGES + " (2 GiB less 64 KiB,"
                        + " one Java array) can be held");
            }
        }
        importTypes = RuntimeImports.declaredBy(module, name);
        exports = new HashSet<>();
        for (int i = 0; i < module.exportSection().exportCount(); i++) {
            exports.add(module.exportSection().getExport(i).name());
        }
        for (String e : REQUIRED_EXPORTS) {
            if (!exports.contains(e)) {
                throw new FormatException(name, "exports", "no function " + e
                        + ": not a circom 2 witness generator (circom --wasm makes one)");
            }
        }
        try {
            machines = WasmCompiler.compile(module, cacheDir);
        } catch (ChicoryException e) {
            throw new FormatException(name, "code", "cannot be compiled: " + e.getMessage(), e);
        }

        Run probe = new Run(line -> { }); // (before the version is read: nothing it logs is kept)
        Instance inst = probe.instantiate();
        try {
            major = i32(inst, "getVersion");
            minor = exports.contains("getMinorVersion") ? i32(inst, "getMinorVersion") : 0;
            patch = exports.contains("getPatchVersion") ? i32(inst, "getPatchVersion") : 0;
            if (major != 2) {
                throw new FormatException(name, "version", "made by circom " + major + "." + minor + "."
                        + patch + "; only circom 2 witness generators are supported");
            }
            n32 = i32(inst, "getFieldNumLen32");
            if (n32 < 1 || n32 > 64) {
                throw new FormatException(name, "prime", "field of " + n32 + " 32-bit words");
            }
            inst.export("getRawPrime").apply();
            prime = readShared(inst);
            curve = PairingCurve.byScalarModulus(prime).orElseThrow(() -> new FormatException(name, "prime",
                    "compiled for the prime " + prime + ", not the scalar field of BN254 (bn128) or"
                            + " BLS12-381 (bls12381): compile with circom --prime bn128 or --prime bls12381"));
            if (n32 * 32 != Witness.WORDS * 64) {
                throw new FormatException(name, "prime", n32 + " words per value, expected 8");
            }
            witnessSize = i32(inst, "getWitnessSize");
            inputCount = i32(inst, "getInputSize");
            if (witnessSize < 1 || witnessSize > Integer.MAX_VALUE / Witness.WORDS || inputCount < 0) {
                throw new FormatException(name, "sizes", witnessSize + " witness values, " + inputCount + " inputs");
            }
            // the shared memory read directly (one call per value instead of n32) where it is exported
            // and holds what readSharedRWMemory reads
            sharedMemoryReadable = exports.contains("getSharedRWMemoryStart") && exports.contains("memory")
                    && sharedStartMatches(inst);
        } catch (ChicoryException e) {
            throw new FormatException(name, null, "the witness generator failed to start: " + e.getMessage(), e);
        }
    }

    /**
     * Loads and compiles {@code circuit.wasm}: the larger the circuit, the longer (seconds for the
     * 2^17 constraints of 253 Poseidon hashes, a 2.3 MB module:
     * docs/decisions/0020-compiled-witness-generators.md).
     */
    public static CircomWasm load(Path wasm) {
        return load(wasm, null);
    }

    /**
     * As {@link #load(Path)}, keeping the JVM classes compiled from the module in {@code cacheDir}
     * (one jar per module, named by its SHA-256; created if absent), so that a later process loading
     * the same module skips the compilation (most of its load time). Only point this at a
     * directory that nobody else can write: its classes are loaded as they are. Null: no cache.
     */
    public static CircomWasm load(Path wasm, Path cacheDir) {
        InputFiles.requireRegularFile(wasm);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(wasm);
        } catch (NoSuchFileException e) {
            throw new FormatException(wasm, null, "no such file");
        } catch (IOException e) {
            throw new FormatException(wasm, null, "cannot read: " + e.getMessage(), e);
        }
        return new CircomWasm(wasm, bytes, cacheDir, CircomSymbols.beside(wasm).orElse(null));
    }

    /** Loads a witness generator from bytes; {@code name} names it in errors. */
    public static CircomWasm load(byte[] wasm, String name) {
        return new CircomWasm(Path.of(name), wasm.clone(), null, null);
    }

    /** The curve whose scalar field the circuit is compiled for. */
    public PairingCurve curve() {
        return curve;
    }

    /** The circuit's prime (the curve's scalar field modulus r). */
    public BigInteger prime() {
        return prime;
    }

    /** Number of witness values (w_0 = 1 included): the circuit's wires. */
    public int witnessSize() {
        return witnessSize;
    }

    /** Number of input values the circuit takes (array signals count each element). */
    public int inputCount() {
        return inputCount;
    }

    /** The circom version that made the generator ("2.2.3"). */
    public String circomVersion() {
        return major + "." + minor + "." + patch;
    }

    /** Computes the witness of {@code input}; the circuit's log() output is dropped. */
    public Witness calculate(CircomInput input) {
        return calculate(input, line -> { });
    }

    /**
     * Computes the witness of {@code input}; each line the circuit prints with circom's
     * {@code log()} goes to {@code log}, as snarkjs prints it.
     *
     * @throws WitnessException when the input does not fit the circuit, or the circuit rejects it
     */
    /**
     * Checks that {@code input} gives every input signal of the circuit, each with its number of values,
     * and no other, without computing anything (what {@link #calculate} checks first): a service can
     * refuse such input when it is submitted rather than fail its job later. A generator that cannot
     * tell the sizes of its inputs (before circom 2.1) checks nothing here.
     *
     * @throws WitnessException when the input does not fit the circuit
     */
    public void check(CircomInput input) {
        Run run = new Run(line -> { });
        Instance inst = run.instantiate();
        try {
            inst.export("init").apply(0);
            run.signals(inst, input);
        } catch (ChicoryException e) {
            throw new IllegalStateException(name + ": the witness generator trapped: " + e.getMessage(), e);
        }
    }

    public Witness calculate(CircomInput input, Consumer<String> log) {
        Run run = new Run(log);
        Instance inst = run.instantiate();
        try {
            return run.calculate(inst, input);
        } catch (ChicoryException e) {
            throw new IllegalStateException(name + ": the witness generator trapped: " + e.getMessage(), e);
        } catch (StackOverflowError e) {
            throw new IllegalStateException(name + ": the witness generator ran out of stack; run with a larger"
                    + " thread stack (-Xss)", e);
        }
    }

    /** FNV-1a, 64 bits, over UTF-16 code units: how circom's runtime hashes signal names. */
    static long fnv1a(String s) {
        long h = 0xCBF29CE484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001B3L;
        }
        return h;
    }

    @Override
    public String toString() {
        return "CircomWasm[" + name + ", circom " + circomVersion() + ", " + curve.snarkjsName() + ", "
                + witnessSize + " wires, " + inputCount + " inputs]";
    }

    // ---- loading --------------------------------------------------------------------------------

    /**
     * Whether a value the circuit logs joins the current log line (circom 2.0.7 and later) rather than
     * being printed as a line of its own, as snarkjs shows it.
     */
    private boolean valueOnLogLine() {
        return major > 2 || minor >= 1 || patch >= 7;
    }

    private boolean sharedStartMatches(Instance inst) {
        int start = i32(inst, "getSharedRWMemoryStart");
        Memory mem = inst.memory();
        ExportFunction read = inst.export("readSharedRWMemory");
        for (int j = 0; j < n32; j++) {
            if ((int) read.apply(j)[0] != mem.readInt(start + 4 * j)) {
                return false;
            }
        }
        return true;
    }

    private static int i32(Instance inst, String export) {
        return (int) inst.export(export).apply()[0];
    }

    private BigInteger readShared(Instance inst) {
        ExportFunction read = inst.export("readSharedRWMemory");
        byte[] be = new byte[n32 * 4];
        for (int j = 0; j < n32; j++) {
            int w = (int) read.apply(j)[0];
            int p = (n32 - 1 - j) * 4;
            be[p] = (byte) (w >>> 24);
            be[p + 1] = (byte) (w >>> 16);
            be[p + 2] = (byte) (w >>> 8);
            be[p + 3] = (byte) w;
        }
        return new BigInteger(1, be);
    }

    // ---- one computation --------------------------------------------------------------------------

    /** One computation: its instance of the module, with the runtime's imports that collect its messages. */
    private final class Run {
        private final RuntimeImports imports;

        Run(Consumer<String> log) {
            imports = new RuntimeImports(importTypes, log, CircomWasm.this::readShared, valueOnLogLine());
        }

        Instance instantiate() {
            try {
                // ByteArrayMemory: on JDK 25 about twice as fast as the default ByteBufferMemory here
                // a memory grown past MAX_MEMORY_PAGES would overflow the array's int size: the growth fails
                // (memory.grow answers -1, as the WebAssembly specification lets a runtime do)
                return Instance.builder(module).withImportValues(imports.values()).withMachineFactory(machines)
                        .withMemoryFactory(limits -> new ByteArrayMemory(new MemoryLimits(limits.initialPages(),
                                Math.min(limits.maximumPages(), MAX_MEMORY_PAGES), limits.shared()))).build();
            } catch (ChicoryException e) {
                throw new FormatException(name, null, "cannot be instantiated: " + e.getMessage(), e);
            }
        }

        Witness calculate(Instance inst, CircomInput input) {
            inst.export("init").apply(0);
            ExportFunction setInput = inst.export("setInputSignal");
            ExportFunction write = inst.export("writeSharedRWMemory");
            // names and counts first, so that no computation starts on input that does not fit
            List<long[]> hashes = signals(inst, input);

            long count = 0;
            int k = 0;
            for (Map.Entry<String, List<BigInteger>> e : input.signals().entrySet()) {
                String signal = e.getKey();
                long[] hl = hashes.get(k++);
                List<BigInteger> values = e.getValue();
                for (int i = 0; i < values.size(); i++) {
                    BigInteger v = values.get(i).mod(prime);
                    for (int j = 0; j < n32; j++) {
                        write.apply(j, v.shiftRight(32 * j).longValue() & 0xFFFFFFFFL);
                    }
                    try {
                        setInput.apply(hl[0], hl[1], i);
                    } catch (RuntimeException ex) {
                        throw translate(ex, signal);
                    }
                    count++;
                }
            }
            if (count < inputCount) {
                throw missing(count, List.of());
            }
            return new Witness(curve, readWitness(inst));
        }

        /**
         * The hashes of the input's signal names (what the generator takes them by), after checking, where
         * the generator tells the sizes of its inputs, that each is an input of the circuit with its number
         * of values and that none is missing.
         */
        List<long[]> signals(Instance inst, CircomInput input) {
            boolean sized = exports.contains("getInputSignalSize");
            ExportFunction signalSize = sized ? inst.export("getInputSignalSize") : null;
            List<long[]> hashes = new ArrayList<>();
            long given = 0;
            for (Map.Entry<String, List<BigInteger>> e : input.signals().entrySet()) {
                String signal = e.getKey();
                long h = fnv1a(signal);
                long[] hl = {h >>> 32, h & 0xFFFFFFFFL};
                hashes.add(hl);
                if (sized) {
                    int size = (int) signalSize.apply(hl)[0];
                    int n = e.getValue().size();
                    // circom 2.2 answers 0 for a name it does not know (earlier versions -1)
                    if (size < 0 || size == 0 && n > 0) {
                        throw unknown(signal);
                    }
                    if (n != size) {
                        throw new WitnessException(Reason.WRONG_COUNT, signal, "input signal '"
                                + WitnessException.shown(signal) + "' has "
                                + size + (size == 1 ? " value" : " values") + ", the input gives " + n);
                    }
                    given += size;
                }
            }
            if (sized && given < inputCount) {
                throw missing(given, notGiven(signalSize, input));
            }
            return hashes;
        }

        private long[] readWitness(Instance inst) {
            long[] words = new long[witnessSize * Witness.WORDS];
            ExportFunction get = inst.export("getWitness");
            if (sharedMemoryReadable) {
                int start = i32(inst, "getSharedRWMemoryStart");
                Memory mem = inst.memory();
                for (int i = 0; i < witnessSize; i++) {
                    get.apply(i);
                    for (int w = 0; w < Witness.WORDS; w++) {
                        words[i * Witness.WORDS + w] = mem.readLong(start + 8 * w);
                    }
                }
            } else {
                ExportFunction read = inst.export("readSharedRWMemory");
                for (int i = 0; i < witnessSize; i++) {
                    get.apply(i);
                    for (int w = 0; w < Witness.WORDS; w++) {
                        long lo = read.apply(2 * w)[0] & 0xFFFFFFFFL;
                        long hi = read.apply(2 * w + 1)[0] & 0xFFFFFFFFL;
                        words[i * Witness.WORDS + w] = lo | hi << 32;
                    }
                }
            }
            return words;
        }

        private WitnessException unknown(String signal) {
            return new WitnessException(Reason.UNKNOWN_SIGNAL, signal, "circuit has no input signal '"
                    + WitnessException.shown(signal) + "'");
        }

        /**
         * The inputs of the circuit that {@code input} does not give, by the names in the symbol file
         * (the generator answers a size only for the hash of an input's name); null without a symbol file.
         */
        private List<String> notGiven(ExportFunction signalSize, CircomInput input) {
            if (symbols == null) {
                return null;
            }
            List<String> out = new ArrayList<>();
            for (String signal : CircomSymbols.mainSignals(symbols)) {
                if (!input.signals().containsKey(signal)) {
                    long h = fnv1a(signal);
                    if ((int) signalSize.apply(h >>> 32, h & 0xFFFFFFFFL)[0] > 0) {
                        out.add(signal);
                    }
                }
            }
            return out;
        }

        /** {@code names}: the inputs not given, or null when unknown (no symbol file beside the wasm). */
        private WitnessException missing(long given, List<String> names) {
            String text = "Not all inputs have been set. Only " + given + " out of " + inputCount
                    + " input values are given";
            if (names == null) {
                text += " (circom --sym writes the symbol file that names the missing ones)";
            } else if (!names.isEmpty()) {
                List<String> shown = names.subList(0, Math.min(10, names.size()));
                text += "; not given: '" + String.join("', '", shown) + "'"
                        + (names.size() > shown.size() ? " and " + (names.size() - shown.size()) + " more" : "");
            }
            return new WitnessException(Reason.MISSING_INPUTS, names == null || names.isEmpty() ? null : names.get(0),
                    text);
        }

        private RuntimeException translate(RuntimeException ex, String signal) {
            for (Throwable t = ex; t != null; t = t.getCause()) {
                if (t instanceof RuntimeImports.Trap trap) {
                    String text = trap.getMessage().strip().replace("\n", "; ");
                    return switch (trap.code()) {
                        case 1 -> unknown(signal);
                        case 2, 6 -> new WitnessException(Reason.WRONG_COUNT, signal, "input signal '" + WitnessException.shown(signal)
                                + "' has fewer values than the input gives (circom: " + text + ")");
                        default -> new WitnessException(Reason.CIRCUIT_ERROR, signal, trap.code(),
                                "the circuit rejected the input: " + text);
                    };
                }
            }
            return ex;
        }
    }
}

package dev.proofline.engine.groth16;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.MemoryBudget;
import dev.proofline.engine.ResidentCache;
import dev.proofline.engine.Residents;
import dev.proofline.groth16.KeyTableCache;
import dev.proofline.groth16.KeyTables;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.pce.Pce;
import dev.proofline.r1cs.wasm.CircomWasm;
import dev.proofline.r1cs.wasm.WasmRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The circuits an engine proves, registered by id, with the caches of their proving keys and PCE
 * matrices. A job names a circuit by id, never by path. Keys (mapped zkey files, paid for at their
 * file size as {@code KEY}) and PCEs (on the heap, {@code PCE}) are loaded on first use, shared by
 * all partitions, and unloaded least recently used first when the budget needs room and nobody uses
 * them; {@link #preload} and {@link #evict} do it on request. An engine's circuits ({@link #of}) are
 * its {@link Residents}: paid for from its budget, in its status, closed with it.
 */
public final class Circuits implements Residents {

    /** Ids: a letter or digit, then letters, digits and {@code . _ : -}; at most 128 characters. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

    /** A registered circuit. */
    public sealed interface Registered permits Circom, Java {
        String id();

        /** Its Groth16 proving key. */
        Path zkey();
    }

    /**
     * A circom circuit: its key, and optionally its witness generator ({@code circuit.wasm}, for
     * partitions given as inputs) and constraint system ({@code circuit.r1cs}: a, b, c come from its PCE
     * instead of the key's coefficient section).
     */
    public record Circom(String id, Path zkey, Path wasm, Path r1cs) implements Registered {
        /** A circom circuit with its key only: partitions are witnesses, a, b, c come from the key. */
        public Circom(String id, Path zkey) {
            this(id, zkey, null, null);
        }

        /** This circuit with its witness generator: partitions may be circom inputs. */
        public Circom withWasm(Path wasm) {
            return new Circom(id, zkey, wasm, r1cs);
        }

        /** This circuit with its constraint system: a, b, c come from its PCE. */
        public Circom withR1cs(Path r1cs) {
            return new Circom(id, zkey, wasm, r1cs);
        }
    }

    /**
     * A circuit written in Java: its key, and an instance of it whose constraints (not values) are
     * recorded once for the PCE. Partitions are instances of the same shape; {@code fromInput}, when not
     * null, makes one from a partition's input JSON (for clients that cannot send Java objects).
     */
    public record Java(String id, Path zkey, PairingCurve curve, Circuit shape,
            java.util.function.Function<String, Circuit> fromInput) implements Registered {
        public Java(String id, Path zkey, PairingCurve curve, Circuit shape) {
            this(id, zkey, curve, shape, null);
        }
    }

    /** A job or request named a circuit that is not registered. */
    public static final class UnknownCircuitException extends IllegalArgumentException {
        UnknownCircuitException(String message) {
            super(message);
        }
    }

    private final Map<String, Registered> registered = new ConcurrentHashMap<>();
    private final Map<String, CircomWasm> generators = new ConcurrentHashMap<>();
    private final ResidentCache<ProvingKey> keys;
    private final ResidentCache<Pce> pces;

    /**
     * The circuits {@code engine} proves: made on first use with its budget, its load timeout and its key
     * tables ({@link EngineConfig#keyTableBytes}), the same ones after that.
     */
    public static Circuits of(Engine<?> engine) {
        return engine.residents(Circuits.class, e -> new Circuits(e.budget(), e.config().loadTimeout(),
                e.config().keyTableBytes(), e.backend() instanceof DeviceBackendAdapter<?> a ? a.device()::computesAbc : null)
                .withTableCache(e.config().keyTableCache()));
    }

    /** Circuits whose keys and PCEs are paid for from {@code budget}; a load waits for room at most {@code loadTimeout}. */
    public Circuits(MemoryBudget budget, Duration loadTimeout) {
        this(budget, loadTimeout, 0);
    }

    /**
     * As {@link #Circuits(MemoryBudget, Duration)}, each key with precomputed tables of at most
     * {@code keyTableBytes} ({@link KeyTables}; 0: none), reserved with the key and built in the background
     * once it is loaded: its proofs use them once they are attached.
     */
    public Circuits(MemoryBudget budget, Duration loadTimeout, long keyTableBytes) {
        this(budget, loadTimeout, keyTableBytes, null);
    }

    /**
     * As {@link #Circuits(MemoryBudget, Duration, long)}, for a backend that computes a, b, c itself
     * ({@code abc}, {@link DeviceBackend#computesAbc}; null: none does): its jobs use no PCE where it
     * computes them.
     */
    public Circuits(MemoryBudget budget, Duration loadTimeout, long keyTableBytes, Predicate<ProvingKey> abc) {
        this.keys = new ResidentCache<>(budget, MemoryBudget.Kind.KEY, loadTimeout);
        this.pces = new ResidentCache<>(budget, MemoryBudget.Kind.PCE, loadTimeout);
        this.keyTableBytes = keyTableBytes;
        this.abc = abc;
    }

    private final long keyTableBytes;
    private final Predicate<ProvingKey> abc;
    /** Where keys' tables are kept between runs; null: nowhere. */
    private volatile KeyTableCache tableCache;

    /** Keys' tables found in and written to a cache in {@code dir} (null: none), of its default size. */
    public Circuits withTableCache(java.nio.file.Path dir) {
        this.tableCache = dir == null ? null : new KeyTableCache(dir);
        return this;
    }

    /**
     * Whether a job of circuit {@code id} with {@code key} takes a, b, c from the circuit's PCE: where it
     * has one ({@link #hasPce}) and the backend does not compute them from the key ({@link DeviceBackend#computesAbc}).
     */
    public boolean usesPce(String id, ProvingKey key) {
        return hasPce(id) && (abc == null || !abc.test(key));
    }

    /** The tables a key of this file would get (0 when they are off), from its header. */
    private long tableBytes(Path zkey) {
        if (keyTableBytes <= 0) {
            return 0;
        }
        try (ProvingKey k = ZkeyFile.open(zkey, ZkeyFile.PointCheck.NONE)) {
            return KeyTables.plannedBytes(k, keyTableBytes);
        }
    }

    /**
     * Attaches the key's tables, unless the key is unloaded first: mapped from the cache at once where it
     * holds them, else built on a background thread (and written to the cache, where there is one).
     */
    private void buildTables(ProvingKey key) {
        if (keyTableBytes <= 0) {
            return;
        }
        KeyTableCache cache = tableCache;
        if (cache != null && KeyTables.attachCached(key, keyTableBytes, cache).isPresent()) {
            return;
        }
        Thread.ofPlatform().daemon(true).name("key-tables").start(
                () -> KeyTables.attachBuilt(key, keyTableBytes, cache, () -> { }));
    }

    /**
     * Registers {@code c}; its id must be new and well formed, its files must exist, and a circom circuit
     * with a witness generator needs its runtime on the class path ({@link WasmRuntime}).
     */
    public Registered register(Registered c) {
        checkId(c.id());
        requireFile(c.id(), "zkey", c.zkey());
        if (c instanceof Circom cc) {
            if (cc.wasm() != null) {
                requireFile(c.id(), "wasm", cc.wasm());
                WasmRuntime.require("circuit '" + c.id() + "' (its circuit.wasm)");
            }
            if (cc.r1cs() != null) {
                requireFile(c.id(), "r1cs", cc.r1cs());
            }
        }
        if (registered.putIfAbsent(c.id(), c) != null) {
            throw new IllegalArgumentException("circuit '" + c.id() + "' is already registered");
        }
        return c;
    }

    /** Throws when {@code id} is not a well-formed circuit id (it is never a path). */
    public static void checkId(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            // a path is not repeated: a server that cuts paths out of its messages would show its last
            // part, another circuit's name
            String shown = id == null ? "none" : id.contains("/") || id.contains("\\") ? "a path"
                    : "'" + (id.length() > 80 ? id.substring(0, 80) + "…" : id) + "'";
            throw new IllegalArgumentException("invalid circuit id (" + shown + "): a circuit is named by the"
                    + " folder's name in the keys directory, letters, digits and . _ : - only, starting with a"
                    + " letter or digit, at most 128 characters");
        }
    }

    private static void requireFile(String id, String what, Path p) {
        if (p == null || !Files.isRegularFile(p)) {
            throw new IllegalArgumentException("circuit '" + id + "': its " + what + " file " + p + " does not exist");
        }
    }

    /** The circuit registered as {@code id}. */
    public Registered get(String id) {
        Registered c = registered.get(id);
        if (c == null) {
            throw new UnknownCircuitException("unknown circuit '" + id + "' (registered: "
                    + String.join(", ", registered.keySet().stream().sorted().toList()) + ")");
        }
        return c;
    }

    public Optional<Registered> find(String id) {
        return Optional.ofNullable(registered.get(id));
    }

    public List<Registered> list() {
        List<Registered> out = new ArrayList<>(registered.values());
        out.sort(java.util.Comparator.comparing(Registered::id));
        return out;
    }

    @Override
    public ResidentCache<ProvingKey> keys() {
        return keys;
    }

    @Override
    public ResidentCache<Pce> pces() {
        return pces;
    }

    /** A reference to the circuit's proving key, loaded if needed. */
    public ResidentCache<ProvingKey>.Lease key(String id) throws InterruptedException {
        Registered c = get(id);
        return keys.lease(id, new ResidentCache.Loader<>() {
            @Override
            public long bytes() throws Exception {
                return Files.size(c.zkey()) + tableBytes(c.zkey());
            }

            @Override
            public ProvingKey load() {
                ProvingKey k = ZkeyFile.open(c.zkey());
                if (c instanceof Java j && k.curve() != j.curve()) {
                    k.close();
                    throw new IllegalArgumentException("circuit '" + id + "': its key " + c.zkey() + " is for "
                            + k.curve().snarkjsName() + ", the circuit for " + j.curve().snarkjsName());
                }
                buildTables(k);
                return k;
            }
        });
    }

    /** Whether the circuit's a, b, c come from a PCE (a Java circuit, or a circom circuit with its r1cs). */
    public boolean hasPce(String id) {
        return get(id) instanceof Java || get(id) instanceof Circom cc && cc.r1cs() != null;
    }

    /** A reference to the circuit's PCE, extracted if needed; only when {@link #hasPce}. */
    public ResidentCache<Pce>.Lease pce(String id) throws InterruptedException {
        Registered c = get(id);
        if (!hasPce(id)) {
            throw new IllegalArgumentException("circuit '" + id + "' has no constraint system registered for a PCE");
        }
        return pces.lease(id, new ResidentCache.Loader<>() {
            @Override
            public long bytes() throws Exception {
                // an estimate before extraction (the r1cs file's size, or a small guess); trimmed after
                return c instanceof Circom cc ? Files.size(cc.r1cs()) : 64L << 20;
            }

            @Override
            public Pce load() {
                R1cs r1cs = c instanceof Circom cc ? R1csFile.read(cc.r1cs())
                        : RecordingSystem.record(((Java) c).curve(), ((Java) c).shape());
                return new Pce(r1cs);
            }

            @Override
            public long bytesOf(Pce value) {
                return value.heapBytes();
            }
        });
    }

    /** The circom circuit's witness generator, compiled once. */
    public CircomWasm wasm(String id) {
        if (!(get(id) instanceof Circom cc) || cc.wasm() == null) {
            throw new IllegalArgumentException("circuit '" + id + "' has no witness generator (circuit.wasm) registered:"
                    + " give its partitions as witnesses (.wtns)");
        }
        return generators.computeIfAbsent(id, k -> CircomWasm.load(cc.wasm()));
    }

    /** Loads the circuit's key (and PCE, when it has one) now, so the first job does not wait for it. */
    public void preload(String id) throws InterruptedException {
        key(id).close();
        if (hasPce(id)) {
            pce(id).close();
        }
    }

    /** Unloads the circuit's key and PCE if nobody uses them: EVICTED, IN_USE or NOT_RESIDENT (for the key). */
    public ResidentCache.Eviction evict(String id) {
        get(id);
        ResidentCache.Eviction k = keys.evict(id);
        ResidentCache.Eviction p = pces.evict(id);
        return k == ResidentCache.Eviction.IN_USE || p == ResidentCache.Eviction.IN_USE ? ResidentCache.Eviction.IN_USE
                : k == ResidentCache.Eviction.EVICTED || p == ResidentCache.Eviction.EVICTED
                        ? ResidentCache.Eviction.EVICTED : ResidentCache.Eviction.NOT_RESIDENT;
    }

    /** Unloads every idle key and PCE. */
    @Override
    public void close() {
        keys.close();
        pces.close();
    }
}

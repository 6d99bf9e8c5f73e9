package dev.proofline.r1cs.wasm;

import com.dylibso.chicory.runtime.ExportFunction;
import com.dylibso.chicory.runtime.HostFunction;
import com.dylibso.chicory.runtime.ImportValues;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.WasmFunctionHandle;
import com.dylibso.chicory.wasm.WasmModule;
import com.dylibso.chicory.wasm.types.ExternalType;
import com.dylibso.chicory.wasm.types.FunctionImport;
import com.dylibso.chicory.wasm.types.FunctionType;
import com.dylibso.chicory.wasm.types.Import;
import dev.proofline.r1cs.io.FormatException;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The host side of circom 2's runtime, for one computation: the functions a witness generator imports
 * from module {@code "runtime"}, through which it reports an error ({@code exceptionHandler}, after the
 * messages of {@code printErrorMessage}) and prints the lines of circom's {@code log()}
 * ({@code writeBufferMessage}, {@code showSharedRWMemory}). An error unwinds the WebAssembly code as a
 * {@link Trap}; each finished log line goes to the computation's log, as snarkjs prints it.
 */
final class RuntimeImports {

    /** The imports circom 2 generators declare (all in module "runtime"). */
    private static final Set<String> NAMES = Set.of("exceptionHandler", "printErrorMessage",
            "writeBufferMessage", "showSharedRWMemory");

    private final Map<String, FunctionType> types;
    private final Consumer<String> log;
    private final Function<Instance, BigInteger> readShared;
    private final boolean valueOnLogLine;
    private final StringBuilder errors = new StringBuilder();
    private final StringBuilder line = new StringBuilder();

    /**
     * @param types the imports the module declares ({@link #declaredBy})
     * @param log where each line of circom's {@code log()} goes
     * @param readShared reads the value in the generator's shared memory (what {@code showSharedRWMemory}
     *     prints)
     * @param valueOnLogLine whether a printed value joins the current log line (circom 2.0.7 and later)
     *     rather than being a line of its own
     */
    RuntimeImports(Map<String, FunctionType> types, Consumer<String> log, Function<Instance, BigInteger> readShared,
            boolean valueOnLogLine) {
        this.types = types;
        this.log = log;
        this.readShared = readShared;
        this.valueOnLogLine = valueOnLogLine;
    }

    /**
     * The runtime functions {@code module} imports, with their types, in the module's order.
     *
     * @throws FormatException when it imports anything else (a circom 1 generator, or another module)
     */
    static Map<String, FunctionType> declaredBy(WasmModule module, Path name) {
        Map<String, FunctionType> types = new LinkedHashMap<>();
        Set<String> unknown = new TreeSet<>();
        for (int i = 0; i < module.importSection().importCount(); i++) {
            Import im = module.importSection().getImport(i);
            String id = im.module() + "." + im.name();
            if (im.importType() == ExternalType.FUNCTION && im.module().equals("runtime")
                    && NAMES.contains(im.name())) {
                types.put(im.name(), module.typeSection().getType(((FunctionImport) im).typeIndex()));
            } else {
                unknown.add(id);
            }
        }
        if (!unknown.isEmpty()) {
            throw new FormatException(name, "imports", "imports " + String.join(", ", unknown)
                    + ": not a circom 2 witness generator (circom 1's are not supported)");
        }
        return types;
    }

    /** The functions to instantiate the module with. */
    ImportValues values() {
        ImportValues.Builder imports = ImportValues.builder();
        for (Map.Entry<String, FunctionType> e : types.entrySet()) {
            imports.addFunction(new HostFunction("runtime", e.getKey(), e.getValue(), handler(e.getKey())));
        }
        return imports.build();
    }

    private WasmFunctionHandle handler(String function) {
        return switch (function) {
            case "exceptionHandler" -> (inst, args) -> {
                throw new Trap((int) args[0], errorText((int) args[0]) + errors);
            };
            case "printErrorMessage" -> (inst, args) -> {
                errors.append(message(inst)).append('\n');
                return null;
            };
            case "writeBufferMessage" -> (inst, args) -> {
                String msg = message(inst);
                if (msg.equals("\n")) {
                    log.accept(line.toString());
                    line.setLength(0);
                } else {
                    if (!line.isEmpty()) {
                        line.append(' ');
                    }
                    line.append(msg);
                }
                return null;
            };
            case "showSharedRWMemory" -> (inst, args) -> {
                String value = readShared.apply(inst).toString();
                if (valueOnLogLine) {
                    if (!line.isEmpty()) {
                        line.append(' ');
                    }
                    line.append(value);
                } else {
                    log.accept(value);
                }
                return null;
            };
            default -> throw new IllegalStateException(function);
        };
    }

    /** The message the runtime has ready, read one character at a time. */
    private static String message(Instance inst) {
        ExportFunction next = inst.export("getMessageChar");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int c = (int) next.apply()[0]; c != 0; c = (int) next.apply()[0]) {
            out.write(c);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String errorText(int code) {
        return switch (code) {
            case 1 -> "Signal not found. ";
            case 2 -> "Too many signals set. ";
            case 3 -> "Signal already set. ";
            case 4 -> "Assert Failed. ";
            case 5 -> "Not enough memory. ";
            case 6 -> "Input signal array access exceeds the size. ";
            case 7 -> "Out of bounds array access. ";
            default -> "Unknown error (" + code + "). ";
        };
    }

    /**
     * circom's runtime reported an error through exceptionHandler: its code, and its text followed by
     * the messages printed before it. Unwinds the WebAssembly code.
     */
    static final class Trap extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int code;

        private Trap(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        int code() {
            return code;
        }
    }
}

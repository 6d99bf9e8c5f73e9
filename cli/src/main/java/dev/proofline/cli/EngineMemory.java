package dev.proofline.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The local engine's memory: its budget, which scales with the machine, and what each part costs now,
 * for {@code engine status}. The budget: the heap at most half the machine's memory (the launcher runs
 * the engine with {@code -XX:MaxRAMPercentage=50}, and its garbage collector gives unused heap back to
 * the system when the engine idles); the resident keys, their files and their precomputed tables
 * together, at most {@link #keyBudgetBytes} (half the machine's memory), each key's tables at most
 * {@link #tableBytesPerKey} (a sixteenth of the memory, 256 MiB at most). Proving keys are mapped from
 * their files: the system may drop those pages and read them again.
 */
final class EngineMemory {

    /** Most native memory a key's tables take, on a machine of 4 GiB or more. */
    static final long MAX_TABLE_BYTES_PER_KEY = 256L << 20;

    private EngineMemory() {
    }

    /** The resident keys' budget where the machine's memory cannot be told. */
    static final long DEFAULT_KEY_BUDGET_BYTES = 2L << 30;

    /** The machine's memory, or 0 where the JVM cannot tell. */
    static long machineBytes() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return 0;
    }

    /** Native memory for each resident key's tables: a sixteenth of the machine's memory, 256 MiB at most. */
    static long tableBytesPerKey() {
        long machine = machineBytes();
        return machine <= 0 ? MAX_TABLE_BYTES_PER_KEY : Math.min(MAX_TABLE_BYTES_PER_KEY, machine / 16);
    }

    /**
     * What the resident keys may hold in all, their mapped files and their tables: half the machine's
     * memory (2 GiB where it cannot be told). A key that finds no room once the idle ones are unloaded is
     * opened for its request only.
     */
    static long keyBudgetBytes() {
        long machine = machineBytes();
        return machine <= 0 ? DEFAULT_KEY_BUDGET_BYTES : machine / 2;
    }

    /**
     * The status lines: the process's resident memory and its parts, then the budget. {@code tableBytes}
     * and {@code mappedKeyBytes} are what the resident keys hold now.
     */
    static List<String> statusLines(long tableBytes, long tableBytesPerKey, long keyBudgetBytes, long mappedKeyBytes) {
        Map<String, Long> proc = procStatus();
        Runtime rt = Runtime.getRuntime();
        var nonHeap = ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage();
        List<String> lines = new ArrayList<>();
        String resident = proc.containsKey("VmRSS")
                ? ResidentFiles.size(proc.get("VmRSS")) + " resident (" + ResidentFiles.size(proc.getOrDefault("RssAnon", 0L))
                        + " the engine's own, " + ResidentFiles.size(proc.getOrDefault("RssFile", 0L)) + " of files)"
                : "resident size unknown";
        lines.add("memory     " + resident + ": heap " + ResidentFiles.size(rt.totalMemory() - rt.freeMemory())
                + " in use of " + ResidentFiles.size(rt.totalMemory()) + " held; key tables "
                + ResidentFiles.size(tableBytes) + "; keys mapped " + ResidentFiles.size(mappedKeyBytes)
                + "; compiled code and classes " + ResidentFiles.size(nonHeap.getCommitted())
                + (proc.containsKey("RssAnon") ? "; the rest of its own (collector, threads, compilers) about "
                        + ResidentFiles.size(Math.max(0, proc.get("RssAnon") - rt.totalMemory() - tableBytes
                                - nonHeap.getCommitted())) : ""));
        long machine = machineBytes();
        lines.add("budget     heap at most " + ResidentFiles.size(rt.maxMemory())
                + (machine > 0 ? " (of " + ResidentFiles.size(machine) + ")" : "") + "; keys and their tables at most "
                + ResidentFiles.size(keyBudgetBytes) + ", a key's tables at most " + ResidentFiles.size(tableBytesPerKey));
        return lines;
    }

    /** The sizes of /proc/self/status in bytes (VmRSS, RssAnon, RssFile, ...); empty where it cannot be read. */
    private static Map<String, Long> procStatus() {
        Map<String, Long> m = new TreeMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                String[] f = line.split("\\s+");
                if (f.length == 3 && f[2].equals("kB") && f[0].endsWith(":")) {
                    m.put(f[0].substring(0, f[0].length() - 1), Long.parseLong(f[1]) * 1024);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the resident size is left out
        }
        return m;
    }
}

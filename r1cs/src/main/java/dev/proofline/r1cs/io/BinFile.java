package dev.proofline.r1cs.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The container of iden3's binary files (.zkey, .wtns, .r1cs, .ptau), memory-mapped read-only:
 * a 4-byte magic, a u32 version, a u32 section count, then sections, each a u32 type, a u64 byte
 * size and its bytes. All integers are little-endian. The mapping lives as long as its arena.
 */
public final class BinFile {

    /** A little-endian u32 at any alignment, as these files and their mappings hold them. */
    public static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** A little-endian 64-bit word at any alignment (also each word of a field element). */
    public static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** One section: its type, and its bytes as a slice of the mapping. */
    public record Section(int type, long offset, MemorySegment data) {
    }

    private final Path path;
    private final String kind;
    private final int version;
    private final MemorySegment whole;
    private final Map<Integer, List<Section>> sections;
    private final Map<Integer, String> names;

    private BinFile(Path path, String kind, int version, MemorySegment whole, Map<Integer, List<Section>> sections,
            Map<Integer, String> names) {
        this.path = path;
        this.kind = kind;
        this.version = version;
        this.whole = whole;
        this.sections = sections;
        this.names = names;
    }

    /**
     * Maps {@code path} and reads its section table. {@code magic} is the expected 4-character kind
     * ("zkey", "wtns", "r1cs"); versions above {@code maxVersion} are rejected. {@code names} gives
     * section types their names for error messages.
     */
    public static BinFile open(Path path, String magic, int maxVersion, Map<Integer, String> names, Arena arena) {
        InputFiles.requireRegularFile(path);
        MemorySegment seg;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
        } catch (IOException e) {
            throw InputFiles.unreadable(path, e);
        }
        return parse(path, seg, magic, maxVersion, names);
    }

    /** Reads the section table of a file already in memory. */
    public static BinFile parse(Path path, MemorySegment seg, String magic, int maxVersion, Map<Integer, String> names) {
        if (seg.byteSize() < 12) {
            throw new FormatException(path, "header", "truncated: " + seg.byteSize()
                    + " bytes, a ." + magic + " file starts with a 12-byte header");
        }
        byte[] m = seg.asSlice(0, 4).toArray(ValueLayout.JAVA_BYTE);
        String found = new String(m, StandardCharsets.ISO_8859_1);
        if (!found.equals(magic)) {
            throw new FormatException(path, "header", "not a ." + magic + " file (magic \"" + printable(found)
                    + "\", expected \"" + magic + "\")");
        }
        int version = seg.get(U32, 4);
        if (version < 1 || Integer.compareUnsigned(version, maxVersion) > 0) {
            throw new FormatException(path, "header", "unsupported ." + magic + " version "
                    + Integer.toUnsignedString(version) + " (supported: 1 to " + maxVersion + ")");
        }
        // Only the declared sections are read, and that count is bounded: a table walked to the end
        // of the file would turn a zero tail into millions of empty sections.
        long declared = Integer.toUnsignedLong(seg.get(U32, 8));
        if (declared > InputLimits.MAX_SECTIONS) {
            throw new FormatException(path, "header", "declares " + declared + " sections, at most "
                    + InputLimits.MAX_SECTIONS + " are read");
        }
        Map<Integer, List<Section>> sections = new HashMap<>();
        long pos = 12;
        for (long i = 0; i < declared; i++) {
            if (seg.byteSize() - pos < 12) {
                throw new FormatException(path, "section table", "truncated: declares " + declared
                        + " sections, the file ends " + (seg.byteSize() - pos) + " bytes into the header of section #" + i);
            }
            int type = seg.get(U32, pos);
            long size = seg.get(U64, pos + 4);
            long start = pos + 12;
            String name = name(names, type);
            if (size < 0 || size > seg.byteSize() - start) {
                throw new FormatException(path, name, "truncated: declares " + Long.toUnsignedString(size)
                        + " bytes, only " + (seg.byteSize() - start) + " left in the file");
            }
            sections.computeIfAbsent(type, k -> new ArrayList<>()).add(new Section(type, start, seg.asSlice(start, size)));
            pos = start + size;
        }
        if (pos != seg.byteSize()) {
            throw new FormatException(path, "section table", (seg.byteSize() - pos) + " bytes after the last of the "
                    + declared + " declared sections");
        }
        return new BinFile(path, magic, version, seg, sections, names);
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c >= 32 && c < 127 ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return b.toString();
    }

    private static String name(Map<Integer, String> names, int type) {
        String n = names.get(type);
        return n == null ? "section " + Integer.toUnsignedString(type) : "section " + type + " (" + n + ")";
    }

    public Path path() {
        return path;
    }

    public String kind() {
        return kind;
    }

    public int version() {
        return version;
    }

    /** The whole mapped file. */
    public MemorySegment whole() {
        return whole;
    }

    /** The display name of a section type, for messages: "section 9 (H)". */
    public String sectionName(int type) {
        return name(names, type);
    }

    public boolean has(int type) {
        return sections.containsKey(type);
    }

    /** The one section of this type; missing or repeated is an error. */
    public Section section(int type) {
        List<Section> list = sections.get(type);
        if (list == null) {
            throw error(type, "missing");
        }
        if (list.size() > 1) {
            throw error(type, "appears " + list.size() + " times");
        }
        return list.get(0);
    }

    /** As {@link #section}, and its size must be exactly {@code expected} bytes. */
    public Section section(int type, long expected, String what) {
        Section s = section(type);
        if (s.data().byteSize() != expected) {
            throw error(type, "is " + s.data().byteSize() + " bytes, expected " + expected + " (" + what + ")");
        }
        return s;
    }

    public FormatException error(int type, String problem) {
        return new FormatException(path, sectionName(type), problem);
    }

    public FormatException error(String part, String problem) {
        return new FormatException(path, part, problem);
    }

    /** A sequential little-endian reader over one section, whose overruns name the section. */
    public Reader reader(int type) {
        return new Reader(section(type), sectionName(type));
    }

    /** Reads fields of a section in order; every read checks the bytes are there. */
    public final class Reader {
        private final Section section;
        private final String name;
        private long pos;

        Reader(Section section, String name) {
            this.section = section;
            this.name = name;
        }

        private void need(long n, String field) {
            if (section.data().byteSize() - pos < n) {
                throw new FormatException(path, name, "truncated at " + field + ": needs " + n + " bytes at offset "
                        + pos + ", the section has " + section.data().byteSize());
            }
        }

        public int u32(String field) {
            need(4, field);
            int v = section.data().get(U32, pos);
            pos += 4;
            return v;
        }

        /** A u32 that must lie in [min, max] (as an unsigned value). */
        public int u32(String field, long min, long max) {
            long v = Integer.toUnsignedLong(u32(field));
            if (v < min || v > max) {
                throw new FormatException(path, name, field + " is " + v + ", must be in [" + min + ", " + max + "]");
            }
            return (int) v;
        }

        public long u64(String field) {
            need(8, field);
            long v = section.data().get(U64, pos);
            pos += 8;
            return v;
        }

        /** An unsigned little-endian integer of n bytes. */
        public BigInteger integer(int n, String field) {
            need(n, field);
            byte[] le = section.data().asSlice(pos, n).toArray(ValueLayout.JAVA_BYTE);
            pos += n;
            byte[] be = new byte[n + 1];
            for (int i = 0; i < n; i++) {
                be[n - i] = le[i];
            }
            return new BigInteger(be);
        }

        /** Skips n bytes, returning the offset (within the section) where they start. */
        public long skip(long n, String field) {
            need(n, field);
            long at = pos;
            pos += n;
            return at;
        }

        public long position() {
            return pos;
        }

        public long remaining() {
            return section.data().byteSize() - pos;
        }

        public MemorySegment data() {
            return section.data();
        }

        public FormatException error(String problem) {
            return new FormatException(path, name, problem);
        }
    }
}

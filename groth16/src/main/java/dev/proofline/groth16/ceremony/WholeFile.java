package dev.proofline.groth16.ceremony;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A streamed output file written whole or not at all: to {@code <target>.partial}, moved into place
 * once written, so that a refused input or a crash never leaves half a target (a file that a later
 * step would take for a whole one). Where the writing fails, the partial file is deleted, unless the
 * step is {@linkplain #resumable resumable}.
 *
 * <p>A resumable step writes its file in parts ({@link Out#next}, {@link Out#end}), the format's own
 * (a challenge's sections, the MPC parameters' point lists): each part's bytes are forced to the disk
 * and then its end is noted beside the file ({@link Leftovers}), since a stream, unlike a sectioned
 * file, does not record where its parts end. The same step on the same inputs later keeps the parts
 * noted and goes on from there, so that a crash costs at most the part under way.
 */
final class WholeFile {

    /** What writes the file's bytes; it may throw to refuse what it read, and nothing is left then. */
    interface Body<T> {
        T write(OutputStream out) throws IOException;
    }

    /** What writes the file part by part; it may throw, and what it finished is kept where resumable. */
    interface Parts<T> {
        T write(Out out) throws IOException;
    }

    private WholeFile() {
    }

    /** Writes {@code target} with {@code body}, as one part of a step that is not resumable. */
    static <T> T write(Path target, Body<T> body) throws IOException {
        return resumable(target, null, line -> { }, out -> {
            out.next("the file");
            T result = body.write(out);
            out.end();
            return result;
        });
    }

    /**
     * Writes {@code target} with {@code body}; {@code identity} ({@link Leftovers#identity}): what the run
     * is for, whose earlier run's finished parts are kept, null: not resumable. Returns what {@code body}
     * returned.
     */
    static <T> T resumable(Path target, String identity, Consumer<String> log, Parts<T> body) throws IOException {
        Leftovers leftovers = new Leftovers(target, identity);
        T result;
        try (Out out = new Out(leftovers, log)) {
            result = body.write(out);
            out.commit(target);
        } catch (IOException | RuntimeException e) {
            leftovers.abandon();
            throw e;
        }
        return result;
    }

    /** The file being written: a part at a time, each begun by {@link #next} and, if written, ended by {@link #end}. */
    static final class Out extends OutputStream {

        private final Leftovers leftovers;
        private final Consumer<String> log;
        private final FileChannel ch;
        private final Arena arena = Arena.ofShared();
        private final ByteBuffer buf = ByteBuffer.allocate(1 << 20);
        /** Where the earlier run's noted parts end, those not yet taken by {@link #next}. */
        private final List<Long> earlier = new ArrayList<>();
        /** Where the parts of this file end, kept or written, as noted. */
        private final List<String> ends = new ArrayList<>();
        private long position;
        private boolean writing;
        private boolean closed;

        Out(Leftovers leftovers, Consumer<String> log) throws IOException {
            this.leftovers = leftovers;
            this.log = log;
            List<String> noted = leftovers.earlier();
            this.ch = noted == null
                    ? FileChannel.open(leftovers.temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE, StandardOpenOption.READ)
                    : FileChannel.open(leftovers.temp, StandardOpenOption.WRITE, StandardOpenOption.READ);
            if (noted == null) {
                if (leftovers.resumable()) {
                    leftovers.note(ends);
                }
                return;
            }
            long size = ch.size();
            long last = 0;
            for (String line : noted) {
                long end;
                try {
                    end = Long.parseLong(line);
                } catch (NumberFormatException e) {
                    break;
                }
                if (end <= last || end > size) {
                    break;
                }
                earlier.add(end);
                last = end;
            }
            if (!earlier.isEmpty()) {
                leftovers.sayResuming(log);
            }
        }

        /**
         * Begins the next part, named {@code part}: null where it is to be written now (then {@link #end}
         * once written); where an earlier run finished it, its bytes (mapped for reading), which are kept
         * ("{@code part}: kept from the earlier run"), and nothing is to be written for it.
         */
        MemorySegment next(String part) throws IOException {
            if (writing) {
                throw new IllegalStateException("part not ended");
            }
            if (!earlier.isEmpty()) {
                long from = position;
                position = earlier.removeFirst();
                ends.add(Long.toString(position));
                Leftovers.sayKept(log, part);
                return ch.map(FileChannel.MapMode.READ_ONLY, from, position - from, arena);
            }
            if (ch.position() != position || ch.size() != position) {
                ch.truncate(position);   // what follows the kept parts is a part that was not finished
                ch.position(position);
            }
            writing = true;
            return null;
        }

        /**
         * The next part, named {@code part}: written by {@code body}, or kept where an earlier run finished
         * it; returns its kept bytes then, null where it was written now.
         */
        MemorySegment part(String part, Body<?> body) throws IOException {
            MemorySegment kept = next(part);
            if (kept == null) {
                body.write(this);
                end();
            }
            return kept;
        }

        /** The part begun by {@link #next} is written: on a resumable run, forced to the disk and noted. */
        void end() throws IOException {
            if (!writing) {
                throw new IllegalStateException("no part begun");
            }
            flush();
            writing = false;
            if (leftovers.resumable()) {
                ch.force(false);   // the part's bytes on the disk before the note says it is whole
                ends.add(Long.toString(position));
                leftovers.note(ends);
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (!writing) {
                throw new IllegalStateException("no part begun");
            }
            while (len > 0) {
                if (!buf.hasRemaining()) {
                    flush();
                }
                int n = Math.min(len, buf.remaining());
                buf.put(b, off, n);
                off += n;
                len -= n;
                position += n;
            }
        }

        @Override
        public void flush() throws IOException {
            buf.flip();
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            buf.clear();
        }

        /** Moves the whole file onto {@code target}. */
        private void commit(Path target) throws IOException {
            if (writing) {
                throw new IllegalStateException("part not ended");
            }
            ch.truncate(position);
            ch.force(true);
            close();
            leftovers.commit(target);
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                try {
                    flush();
                } finally {
                    ch.close();
                    arena.close();
                }
            }
        }
    }
}

package dev.proofline.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The local engine's response to one request ({@link LocalEngine} has the protocol): lines written
 * whole, each flushed at once so that the client prints them as they come. A client that went away is
 * not written to again (the command runs on).
 */
final class EngineResponse {

    private final Writer out;
    private boolean broken;

    EngineResponse(OutputStream socket) {
        this.out = new BufferedWriter(new OutputStreamWriter(socket, StandardCharsets.UTF_8));
    }

    synchronized void line(char kind, String text) {
        if (broken) {
            return;
        }
        try {
            out.write(kind);
            out.write(' ');
            out.write(text);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            broken = true;
        }
    }

    void exit(int code) {
        line('x', Integer.toString(code));
    }

    /** A writer whose whole lines go out as {@code kind} lines; on close, unended text as the upper case kind. */
    Writer writer(char kind) {
        return new Writer() {
            private final StringBuilder pending = new StringBuilder();

            @Override
            public void write(char[] buf, int off, int len) {
                for (int i = off; i < off + len; i++) {
                    if (buf[i] == '\n') {
                        line(kind, pending.toString());
                        pending.setLength(0);
                    } else {
                        pending.append(buf[i]);
                    }
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
                if (!pending.isEmpty()) {
                    line(Character.toUpperCase(kind), pending.toString());
                    pending.setLength(0);
                }
            }
        };
    }
}

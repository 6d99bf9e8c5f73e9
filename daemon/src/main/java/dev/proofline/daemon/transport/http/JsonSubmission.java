package dev.proofline.daemon.transport.http;

import com.fasterxml.jackson.core.Base64Variant;
import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.Priority;
import dev.proofline.api.v1.SubmitProofRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A {@code POST /v1/jobs} body read as the gRPC request, in one pass over the bytes: each witness's base64
 * is decoded straight from the body into chunks of bytes, never held as text first (a JSON tree would
 * hold it as the parser's characters and then as a string, four times the witness's size, before the
 * decoding began). Everything else in the body is small and read as a tree. Strict as the command line's
 * readers are: a duplicate key and content after the object are refused.
 */
final class JsonSubmission {

    private static final Set<String> FIELDS = Set.of("circuit", "partitions", "priority", "idempotency_key",
            "deadline_ms");
    /** The standard alphabet, as {@code java.util.Base64}'s basic decoder takes it: padding optional. */
    private static final Base64Variant BASE64 = Base64Variants.MIME_NO_LINEFEEDS
            .withReadPadding(Base64Variant.PaddingReadBehaviour.PADDING_ALLOWED);

    private JsonSubmission() {
    }

    /** The request a body holds; INVALID_ARGUMENT naming the field and the fault otherwise. */
    static SubmitProofRequest read(ObjectMapper json, byte[] body) {
        ObjectNode fields = json.createObjectNode();
        // each value read as a tree is followed by the rest of the body, not trailing content
        ObjectReader tree = json.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        List<Partition> partitions = null;
        try (JsonParser p = json.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw invalid("the body must be a JSON object with 'circuit' and 'partitions'");
            }
            while (p.nextToken() != JsonToken.END_OBJECT) {
                String name = p.currentName();
                if (!FIELDS.contains(name)) {
                    throw invalid("unknown field '" + JsonApi.clip(name) + "'; the fields are "
                            + FIELDS.stream().sorted().toList());
                }
                p.nextToken();
                if (name.equals("partitions")) {
                    partitions = partitions(p, tree);
                } else {
                    fields.set(name, tree.readTree(p));
                }
            }
            JsonToken after = p.nextToken();
            if (after != null) {
                throw invalid("the body is not JSON: Trailing token (of type " + after + ") found after the object");
            }
        } catch (JacksonException e) {
            throw invalid("the body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw invalid("the body is not JSON: " + e.getMessage());
        }
        SubmitProofRequest.Builder b = SubmitProofRequest.newBuilder().setCircuitId(text(fields, "circuit", true));
        if (partitions == null) {
            throw invalid(PARTITIONS);
        }
        b.addAllPartitions(partitions);
        String priority = text(fields, "priority", false);
        if (!priority.isEmpty()) {
            try {
                Priority p = Priority.valueOf(priority.toUpperCase(Locale.ROOT));
                if (p == Priority.UNRECOGNIZED || p == Priority.PRIORITY_UNSPECIFIED) {
                    throw new IllegalArgumentException(priority);
                }
                b.setPriority(p);
            } catch (IllegalArgumentException e) {
                throw invalid("'priority' must be LOW, NORMAL, HIGH or CRITICAL, not '" + JsonApi.clip(priority) + "'");
            }
        }
        b.setIdempotencyKey(text(fields, "idempotency_key", false));
        JsonNode deadline = fields.get("deadline_ms");
        if (deadline != null && !deadline.isNull()) {
            if (!deadline.canConvertToExactIntegral() || deadline.asLong() < 0 || !deadline.canConvertToLong()) {
                throw invalid("'deadline_ms' must be a whole number of milliseconds, at least 0");
            }
            b.setDeadlineMs(deadline.asLong());
        }
        return b.build();
    }

    private static final String PARTITIONS = "'partitions' must be an array of {\"wtns\": base64} or {\"input\": {...}}";

    /** The partitions, the parser on the array's start; it is left on the array's end. */
    private static List<Partition> partitions(JsonParser p, ObjectReader tree) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw invalid(PARTITIONS);
        }
        List<Partition> all = new ArrayList<>();
        for (int i = 0; p.nextToken() != JsonToken.END_ARRAY; i++) {
            all.add(partition(p, i, tree));
        }
        return all;
    }

    /** One partition, the parser on its object's start; it is left on the object's end. */
    private static Partition partition(JsonParser p, int i, ObjectReader tree) throws IOException {
        String name = "partitions[" + i + "]";
        String shape = name + " must be {\"wtns\": \"<base64 .wtns>\"} or {\"input\": {...}}";
        if (p.currentToken() != JsonToken.START_OBJECT || p.nextToken() != JsonToken.FIELD_NAME
                || !(p.currentName().equals("wtns") || p.currentName().equals("input"))) {
            throw invalid(shape);
        }
        boolean wtns = p.currentName().equals("wtns");
        JsonToken value = p.nextToken();
        Partition part;
        if (wtns) {
            if (value != JsonToken.VALUE_STRING) {
                throw invalid(name + ".wtns must be a base64 string");
            }
            part = Partition.newBuilder().setWtns(decoded(p, name)).build();
        } else {
            if (value != JsonToken.START_OBJECT) {
                throw invalid(name + ".input must be a JSON object of circom inputs");
            }
            part = Partition.newBuilder().setInputJson(tree.readTree(p).toString()).build();
        }
        if (p.nextToken() != JsonToken.END_OBJECT) {
            throw invalid(shape);
        }
        return part;
    }

    /** The base64 string the parser is on, decoded as it is read. */
    private static ByteString decoded(JsonParser p, String name) throws IOException {
        Chunks out = new Chunks();
        try {
            p.readBinaryValue(BASE64, out);
        } catch (IllegalArgumentException e) {
            throw invalid(name + ".wtns is not base64: " + e.getMessage());
        } catch (JacksonException e) {
            if (e.getOriginalMessage().contains("base64")) {
                throw invalid(name + ".wtns is not base64: " + e.getOriginalMessage());
            }
            throw e;
        }
        return out.bytes();
    }

    private static String text(ObjectNode fields, String field, boolean required) {
        JsonNode n = fields.get(field);
        if (n == null || n.isNull()) {
            if (required) {
                throw invalid("'" + field + "' is required");
            }
            return "";
        }
        if (!n.isTextual()) {
            throw invalid("'" + field + "' must be a string");
        }
        return n.asText();
    }

    private static StatusRuntimeException invalid(String message) {
        return Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException();
    }

    /**
     * Bytes written in chunks that double from 8 KiB to 1 MiB, joined without a copy: a small witness
     * takes little room, a large one no more than a chunk beyond its size.
     */
    private static final class Chunks extends OutputStream {
        private static final int FIRST = 8 << 10;
        private static final int LARGEST = 1 << 20;

        private final List<ByteString> full = new ArrayList<>();
        private byte[] chunk = new byte[FIRST];
        private int used;

        @Override
        public void write(int b) {
            if (used == chunk.length) {
                next();
            }
            chunk[used++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            while (len > 0) {
                if (used == chunk.length) {
                    next();
                }
                int n = Math.min(len, chunk.length - used);
                System.arraycopy(b, off, chunk, used, n);
                used += n;
                off += n;
                len -= n;
            }
        }

        private void next() {
            full.add(UnsafeByteOperations.unsafeWrap(chunk));
            chunk = new byte[Math.min(chunk.length * 2, LARGEST)];
            used = 0;
        }

        /** What was written: a rope over the chunks, each this stream's alone. */
        ByteString bytes() {
            if (used > 0) {
                full.add(UnsafeByteOperations.unsafeWrap(chunk, 0, used));
            }
            chunk = null;
            return ByteString.copyFrom(full);
        }
    }
}

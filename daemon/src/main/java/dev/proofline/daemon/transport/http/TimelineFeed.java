package dev.proofline.daemon.transport.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.proofline.engine.Timeline;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /timeline?since=<cursor>}: the events a poller has not seen yet, and the cursor for its next
 * poll. A cursor is {@code <epoch>.<n>}: the number of the next event, and this daemon process's epoch (random
 * at start), so that a cursor from before a restart, whose numbers meant other events, is recognised: the
 * answer then starts over ({@code "reset": true}) rather than skip or repeat events. {@code since=0} starts
 * a poller from the beginning.
 */
public final class TimelineFeed {

    /** A cursor that this daemon could not have given out. */
    static final class BadCursor extends IllegalArgumentException {
        BadCursor(String message) {
            super(message);
        }
    }

    private static final Pattern CURSOR = Pattern.compile("([0-9a-f]{16})\\.([0-9]{1,18})");
    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    private final Timeline timeline;
    private final String epoch;

    public TimelineFeed(Timeline timeline) {
        this.timeline = timeline;
        this.epoch = HexFormat.of().toHexDigits(new SecureRandom().nextLong());
    }

    /**
     * {@code {"events": [...], "next": cursor, "missed": n, "reset": bool}}: the events after {@code cursor},
     * oldest first, at most the newest {@code limit}; {@code missed} counts those after the cursor left out
     * (past {@code limit}, or no longer in the ring).
     *
     * @throws BadCursor if the cursor is malformed or ahead of this daemon's timeline
     */
    public String since(String cursor, int limit) {
        long from;
        boolean reset = false;
        if (cursor.equals("0")) {
            from = 0;
        } else {
            Matcher m = CURSOR.matcher(cursor);
            if (!m.matches()) {
                throw new BadCursor("'since' must be 0 or a cursor from a previous answer's 'next', not '"
                        + JsonApi.clip(cursor) + "'");
            }
            reset = !m.group(1).equals(epoch);
            from = reset ? 0 : Long.parseLong(m.group(2));
        }
        Timeline.Page page;
        try {
            page = timeline.since(from, limit);
        } catch (IllegalArgumentException e) {
            throw new BadCursor("cursor '" + JsonApi.clip(cursor) + "' is ahead of this daemon's timeline");
        }
        ObjectNode out = JSON.createObjectNode();
        out.set("events", JSON.valueToTree(page.events()));
        out.put("next", epoch + "." + page.next()).put("missed", page.missed()).put("reset", reset);
        return out.toString();
    }
}

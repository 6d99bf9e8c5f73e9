package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The ceremony steps' progress bar: when it is drawn, what it says, and that lines and the end clear it. */
class CeremonyOutputTest {

    @Test
    void theBarWaitsTwoSecondsShowsTheTimeLeftAndIsClearedForLinesAndAtTheEnd() {
        StringWriter out = new StringWriter();
        long[] now = {0};
        CeremonyOutput.Bar bar = new CeremonyOutput.Bar(new PrintWriter(out), true, () -> now[0]);
        bar.done(0.1);
        assertEquals("", out.toString(), "nothing in the first two seconds");
        now[0] = 3_000_000_000L;
        bar.done(0.25);
        assertTrue(out.toString().startsWith("\r[#######" + " ".repeat(23) + "]  25%  about 9 s left"), out::toString);
        int drawn = out.toString().length();
        now[0] += 100_000_000L;
        bar.done(0.3);
        assertEquals(drawn, out.toString().length(), "not drawn again within a quarter of a second");
        bar.accept("lagrange tauG1: domain 2^20 in 3600.00 s");
        assertTrue(out.toString().endsWith("\r" + " ".repeat(62) + "\rlagrange tauG1: domain 2^20 in 3600.00 s"
                + System.lineSeparator()), out::toString);
        now[0] += 1_000_000_000L;
        bar.done(0.5);
        bar.done(1);
        assertTrue(out.toString().endsWith("\r" + " ".repeat(62) + "\r"), "cleared at the end: " + out);
        assertEquals("2 min", CeremonyOutput.Bar.duration(100));
        assertEquals("1.5 h", CeremonyOutput.Bar.duration(5400));
    }

    @Test
    void withoutATerminalOnlyTheLinesAreWritten() {
        StringWriter out = new StringWriter();
        long[] now = {10_000_000_000L};
        CeremonyOutput.Bar bar = new CeremonyOutput.Bar(new PrintWriter(out), false, () -> now[0]);
        now[0] += 5_000_000_000L;
        bar.done(0.5);
        bar.accept("done");
        assertEquals("done" + System.lineSeparator(), out.toString());
    }

    @Test
    void theBarAloneDrawsAndClearsButWritesNoLine() {
        StringWriter out = new StringWriter();
        long[] now = {0};
        CeremonyOutput.Bar bar = new CeremonyOutput.Bar(new PrintWriter(out), true, () -> now[0], false);
        bar.accept("the chain of 1 contributions holds");
        assertEquals("", out.toString(), "a line is not written");
        now[0] = 3_000_000_000L;
        bar.done(0.5);
        assertTrue(out.toString().startsWith("\r[" + "#".repeat(15) + " ".repeat(15) + "]  50%"), out::toString);
        bar.accept("H written");
        bar.done(1);
        assertTrue(out.toString().endsWith("\r" + " ".repeat(62) + "\r"), "cleared at the end: " + out);
        assertTrue(!out.toString().contains("written"), out::toString);

        StringWriter piped = new StringWriter();
        CeremonyOutput.Bar none = new CeremonyOutput.Bar(new PrintWriter(piped), false, () -> now[0], false);
        none.accept("H written");
        none.done(0.5);
        none.done(1);
        assertEquals("", piped.toString(), "nothing without a terminal");
    }
}

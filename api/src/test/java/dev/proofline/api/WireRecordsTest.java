package dev.proofline.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.SubmitProofRequest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The client's records on the wire: what a submission sends, how states come back. */
class WireRecordsTest {

    @Test
    void aSubmissionCarriesItsPartitionsAndOptions() {
        byte[] wtns = {'w', 't', 'n', 's'};
        SubmitProofRequest r = WireRecords.request("multiplier", List.of(new PartitionInput.Wtns(wtns),
                new PartitionInput.CircomInput("{\"a\": \"3\"}")), JobOptions.DEFAULT.withPriority(Priority.CRITICAL)
                .withIdempotencyKey("k-7").withDeadline(Duration.ofSeconds(90)));
        assertEquals("multiplier", r.getCircuitId());
        assertEquals(dev.proofline.api.v1.Priority.CRITICAL, r.getPriority());
        assertEquals("k-7", r.getIdempotencyKey());
        assertEquals(90_000, r.getDeadlineMs());
        assertEquals(Partition.InputCase.WTNS, r.getPartitions(0).getInputCase());
        assertArrayEquals(wtns, r.getPartitions(0).getWtns().toByteArray());
        assertEquals("{\"a\": \"3\"}", r.getPartitions(1).getInputJson());
    }

    @Test
    void withoutOptionsNothingOptionalIsSent() {
        SubmitProofRequest r = WireRecords.request("c", List.of(), JobOptions.DEFAULT);
        assertEquals(dev.proofline.api.v1.Priority.NORMAL, r.getPriority());
        assertEquals("", r.getIdempotencyKey());
        assertEquals(0, r.getDeadlineMs());
    }

    @Test
    void aZeroDeadlineIsNoneAndANegativeOneIsRefused() {
        assertNull(JobOptions.DEFAULT.withDeadline(Duration.ZERO).deadline());
        assertThrows(IllegalArgumentException.class, () -> JobOptions.DEFAULT.withDeadline(Duration.ofSeconds(-1)));
    }

    @Test
    void aStateThisClientDoesNotKnowReadsAsRunning() {
        assertEquals(JobState.DONE, WireRecords.state(dev.proofline.api.v1.JobState.DONE));
        assertEquals(JobState.DEADLINE_EXCEEDED, WireRecords.state(dev.proofline.api.v1.JobState.DEADLINE_EXCEEDED));
        assertEquals(JobState.RUNNING, WireRecords.state(dev.proofline.api.v1.JobState.UNRECOGNIZED));
    }
}

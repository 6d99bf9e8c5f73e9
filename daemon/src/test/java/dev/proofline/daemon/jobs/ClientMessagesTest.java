package dev.proofline.daemon.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ClientMessagesTest {

    @Test
    void absolutePathsAreCutToTheirFileName() {
        assertEquals("multiplier: circuit.zkey: section 2 is truncated",
                ClientMessages.redact("multiplier: /srv/proofline/keys/multiplier/circuit.zkey: section 2 is truncated"));
        assertEquals("the witness is for bn128, the key circuit.zkey for bls12381",
                ClientMessages.redact("the witness is for bn128, the key /tmp/junit1/keys/m/circuit.zkey for bls12381"));
        assertEquals("(circuit.r1cs)", ClientMessages.redact("(/a/b/circuit.r1cs)"));
    }

    @Test
    void textWithoutAbsolutePathsIsLeftAlone() {
        for (String s : new String[] {"a/b and A·w ∘ B·w = C·w", "1/2 of the budget", "limits.max_request_bytes",
            "partition 0 of circuit 'x.y:z'", "../etc is not an id"}) {
            assertEquals(s, ClientMessages.redact(s));
        }
    }
}

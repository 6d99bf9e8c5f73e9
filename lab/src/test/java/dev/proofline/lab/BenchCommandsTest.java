package dev.proofline.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.cli.CliRun;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code proofline bench}: the kernels, synthesis, key tables and the embedded engine. */
class BenchCommandsTest {

    private static String run(int expectedCode, String... args) {
        CliRun r = CliRun.of(args);
        assertEquals(expectedCode, r.code(), r.err());
        return r.out();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn254", "bls12381"})
    void synthBenchReportsIdenticalResults(String curve) throws Exception {
        String out = run(0, "bench", "synth", "--constraints", "5000", "--depth", "10", "--reps", "1", "--curve",
                curve, "--json");
        JsonNode j = new ObjectMapper().readTree(out);
        assertTrue(j.get("identical").asBoolean(), out);
        assertTrue(j.get("constraints").asInt() >= 5000, out);
        for (String f : new String[] {"enforce_ms", "pce_witness_ms", "pce_spmv_ms", "pce_total_ms", "speedup"}) {
            assertTrue(j.has(f), "has " + f + ": " + out);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void keyTablesBenchProvesTheSameWithAndWithoutTablesAndTimesEachStep(String curve) throws Exception {
        dev.proofline.groth16.testing.CircomFixtures.Fixture fx =
                dev.proofline.groth16.testing.CircomFixtures.build(curve, "poseidon");
        String out = run(0, "bench", "key-tables", fx.zkey().toString(), fx.wtns().toString(), "--reps", "3",
                "--warm-up", "1", "--no-kernels");
        assertTrue(out.contains("KeyTables[5 of 5 point sets"), out);
        assertTrue(out.contains("the same proof with and without tables, for the same r and s: true"), out);
        assertTrue(out.matches("(?s).*without tables: a, b, c [0-9.]+,.* total [0-9.]+ ms\\n.*"), out);
        assertTrue(out.matches("(?s).*with tables: +a, b, c [0-9.]+,.* total [0-9.]+ ms\\n.*"), out);
    }

    @org.junit.jupiter.api.Test
    void keyTablesBenchInOrderProvesTheSameWithTheStepsInOrderAndSideBySide() throws Exception {
        dev.proofline.groth16.testing.CircomFixtures.Fixture fx =
                dev.proofline.groth16.testing.CircomFixtures.build("bn128", "poseidon");
        String out = run(0, "bench", "key-tables", fx.zkey().toString(), fx.wtns().toString(), "--reps", "2",
                "--warm-up", "1", "--no-kernels", "--in-order");
        assertTrue(out.contains("the same proof with the steps in order, for the same r and s: true"), out);
        for (String line : new String[] {"steps in order:", "side by side: "}) {
            assertTrue(out.matches("(?s).*" + line + " +a, b, c [0-9.]+, H \\(NTTs\\) [0-9.]+, MSM A [0-9.]+,.*"
                    + " MSM B2 [0-9.]+, assembly [0-9.]+, verification [0-9.]+, total [0-9.]+ ms\\n.*"), out);
        }
    }

    @org.junit.jupiter.api.Test
    void kernelBenchTimesAnMsmWithAndWithoutATableAndNamesItsWindow() throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode plain = json.readTree(run(0, "bench", "msm-g1", "--log", "9", "--reps", "2"));
        assertTrue(plain.get("table") == null && plain.get("window").asInt() > 0, plain.toString());
        JsonNode table = json.readTree(run(0, "bench", "msm-g1", "--log", "9", "--table", "--window", "7",
                "--warm-up", "2", "--reps", "2"));
        assertTrue(table.get("table").asBoolean(), table.toString());
        assertEquals(7, table.get("window").asInt());
        assertEquals(2, table.get("ms_all").size());
        JsonNode chosen = json.readTree(run(0, "bench", "msm-g2", "--log", "9", "--table", "--reps", "1"));
        assertEquals(dev.proofline.algebra.msm.FixedBaseTable.windowBits(dev.proofline.algebra.bn254.Bn254.G2, 1 << 9,
                Runtime.getRuntime().availableProcessors(), Long.MAX_VALUE), chosen.get("window").asInt());
    }

    @org.junit.jupiter.api.Test
    void engineBenchRunsTheSimulatedWorkloadAndLeaksNothing() throws Exception {
        String out = run(0, "bench", "engine", "--jobs", "3", "--partitions", "4", "--synth-ms", "2",
                "--prove-ms", "1", "--finish-ms", "0", "--bytes", "65536", "--json");
        String[] lines = out.strip().split("\n");
        assertEquals(1, lines.length, out);
        JsonNode j = new ObjectMapper().readTree(lines[0]);
        assertEquals("sim", j.get("backend").asText());
        assertEquals(12, j.get("proofs").asInt(), j.toString());
        assertEquals(0, j.get("permits_leaked").asInt());
        assertEquals(12, j.get("pool_checkouts").asInt());
        assertTrue(j.get("peak_reserved_bytes").asLong() <= j.get("budget_bytes").asLong());
    }

    @org.junit.jupiter.api.Test
    void engineBenchHasNoDispatchModesToCompare() {
        // the engine has one dispatcher: the options that picked or compared dispatch modes are gone
        for (String option : new String[] {"--compare", "--dispatch=poll"}) {
            CliRun r = CliRun.of("bench", "engine", option, "--jobs", "1", "--partitions", "1");
            assertTrue(r.code() != 0, option + " is refused");
            assertTrue(r.err().contains(option.replaceAll("=.*", "")), r.err());
        }
    }

    @org.junit.jupiter.api.Test
    void engineBenchMakesRealProofsOnTheCpuBackend() throws Exception {
        String out = run(0, "bench", "engine", "--backend", "cpu", "--jobs", "1", "--partitions", "2",
                "--constraints", "3000", "--curve", "bls12381", "--json");
        JsonNode j = new ObjectMapper().readTree(out.strip());
        assertEquals("cpu", j.get("backend").asText());
        assertEquals(2, j.get("proofs").asInt(), "both partitions proved (and verified by the prover)");
        assertEquals(0, j.get("permits_leaked").asInt());
    }

    @org.junit.jupiter.api.Test
    void engineBenchProvesACircomKeyWithItsWitnessOnEveryPartition() throws Exception {
        dev.proofline.groth16.testing.CircomFixtures.Fixture fx =
                dev.proofline.groth16.testing.CircomFixtures.build("bn128", "poseidon");
        String out = run(0, "bench", "engine", "--backend", "cpu", "--jobs", "2", "--partitions", "3",
                "--circuit", fx.zkey().toString(), "--witness", fx.wtns().toString(), "--r1cs", fx.r1cs().toString(),
                "--depth", "2", "--json");
        JsonNode j = new ObjectMapper().readTree(out.strip());
        assertEquals(6, j.get("proofs").asInt(), out);
        assertEquals(24, j.get("pool_checkouts").asInt(), "a, b, c and the witness of each partition from the pool: "
                + out);
        assertTrue(j.get("pool_allocations").asInt() <= 8, "at most two permits' worth allocated: " + out);
        assertTrue(j.get("circuit").asText().contains("PCE"), out);
    }
}

package dev.proofline.daemon.config;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proofline.algebra.testing.ReaderContract;
import java.nio.charset.StandardCharsets;

/**
 * The daemon's TOML configuration from any text: a configuration or a
 * {@link DaemonConfig.ConfigException}. Seeds: proofline.example.toml and small files in
 * DaemonConfigFuzzTestInputs/config.
 */
class DaemonConfigFuzzTest {

    @FuzzTest
    void config(byte[] bytes) {
        String toml = new String(bytes, StandardCharsets.UTF_8);
        ReaderContract.returnsOrRejects(() -> DaemonConfig.parse(toml, "fuzz.toml"), DaemonConfig.ConfigException.class);
    }
}

package dev.proofline.daemon.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.dataformat.toml.TomlFactory;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.proofline.daemon.config.DaemonConfig.ConfigException;
import dev.proofline.r1cs.io.InputLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Reads a configuration file into a {@link DaemonConfig}: the file's size, the TOML, and the keys'
 * names and types, each error naming the file, the key and its line; {@link ConfigResolver} then fills
 * the defaults and checks the values.
 */
final class ConfigReader {

    /**
     * Keys that were once valid, with what to say instead of "unknown key": a config written for an
     * earlier version then says what became of them.
     */
    private static final Map<String, String> REMOVED_KEYS = Map.of("engine.dispatch",
            "removed: the engine has one dispatcher (a permit before synthesis, as \"reactive\" was); delete this"
                    + " key");

    private ConfigReader() {
    }

    /** Reads {@code file}; a missing file, bad TOML, an unknown key or a bad value is a {@link ConfigException}. */
    static DaemonConfig read(Path file) {
        String text;
        try {
            if (Files.isDirectory(file)) {
                throw new ConfigException(file + ": is a directory, expected a config file");
            }
            if (Files.size(file) > InputLimits.MAX_CONFIG_BYTES) {
                throw new ConfigException(file + ": " + Files.size(file) + " bytes, a config file has at most "
                        + InputLimits.MAX_CONFIG_BYTES);
            }
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file + ": no such config file");
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot be read: " + e.getMessage());
        }
        return parse(text, file.toString());
    }

    /** Parses TOML text ({@code name} for messages). */
    static DaemonConfig parse(String text, String name) {
        if (text.length() > InputLimits.MAX_CONFIG_BYTES) {
            throw new ConfigException(name + ": " + text.length() + " characters, a config file has at most "
                    + InputLimits.MAX_CONFIG_BYTES);
        }
        TomlMapper mapper = TomlMapper.builder(TomlFactory.builder()
                        .streamReadConstraints(InputLimits.configConstraints()).build())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();
        DaemonConfig raw;
        try {
            raw = mapper.readValue(text, DaemonConfig.class);
        } catch (JsonMappingException e) {
            List<String> path = e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName()
                    : "[" + r.getIndex() + "]").toList();
            String key = path.isEmpty() ? "?" : String.join(".", path);
            String problem = e instanceof com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException
                    ? REMOVED_KEYS.getOrDefault(key, "unknown key")
                    : "wrong type: " + firstLine(e.getOriginalMessage());
            String line = line(e.getLocation());
            if (line.equals("?") && !path.isEmpty()) {
                // the TOML reader keeps no locations: find the key in the text
                ConfigChecker c = new ConfigChecker(name, text);
                line = path.size() == 1 ? c.lineOfSection(path.get(0)) : c.lineOf(path.get(0), path.get(1));
            }
            throw new ConfigException(name + ":" + line + ": " + key + ": " + problem);
        } catch (JsonProcessingException e) {
            throw new ConfigException(name + ":" + line(e.getLocation()) + ": not valid TOML: "
                    + firstLine(e.getOriginalMessage()));
        }
        return ConfigResolver.resolve(raw == null ? new DaemonConfig(null, null, null, null, null, null, null, null) : raw,
                name, text);
    }

    private static String line(JsonLocation loc) {
        return loc == null || loc.getLineNr() < 0 ? "?" : String.valueOf(loc.getLineNr());
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}

package dev.berth.client;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.berth.core.report.TaskReport;
import dev.berth.report.ResultFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Reads what a task left in its folder: {@code result.json}, {@code items.json}, its logs. */
final class ResultFiles {

  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  private ResultFiles() {}

  /**
   * The task's {@code result.json} in its folder {@code taskDir}, read as the reports read it
   * ({@link ResultFile}), or empty when the file does not exist.
   *
   * @throws IllegalStateException when the file exists but cannot be read or is not a JSON object
   */
  static Optional<Map<String, Object>> resultJson(TaskReport task, Path taskDir) {
    return ResultFile.readIn(taskDir, task).map(values -> values);
  }

  /**
   * The items a two-stage task published ({@code items.json}, which the engine rewrites on each
   * item), with JSON objects and arrays as maps and lists; empty when there is none. A file being
   * replaced or unreadable counts as none.
   */
  static Map<String, Object> items(Path taskDir) {
    Path file = taskDir.resolve("items.json");
    if (!Files.isRegularFile(file)) {
      return Map.of();
    }
    try {
      JsonNode root = JSON.readTree(file.toFile());
      if (root == null || !root.isObject()) {
        return Map.of();
      }
      Map<String, Object> values = new java.util.LinkedHashMap<>();
      root.properties().forEach(e -> values.put(e.getKey(), JSON.convertValue(e.getValue(), Object.class)));
      return java.util.Collections.unmodifiableMap(values);
    } catch (IOException e) {
      return Map.of();
    }
  }

  /** A log file's text, or "" when it does not exist. */
  /**
   * The task's {@code stdout.log} or {@code stderr.log} ({@code stream}), a link to its latest
   * attempt's file; where there is no link (an executor that made the folder only when the task
   * first wrote), the highest-numbered {@code attempt-N.<stream>.log}.
   */
  static Path latestLog(Path workdir, String stream) {
    Path shown = workdir.resolve(stream + ".log");
    if (Files.exists(shown)) {
      return shown;
    }
    String suffix = "." + stream + ".log";
    try (java.util.stream.Stream<Path> files = Files.list(workdir)) {
      return files.filter(f -> f.getFileName().toString().matches("attempt-[0-9]{1,9}\\." + stream + "\\.log"))
          .max(java.util.Comparator.comparingInt(f -> Integer.parseInt(
              f.getFileName().toString().substring("attempt-".length()).replace(suffix, ""))))
          .orElse(shown);
    } catch (IOException e) {
      return shown;
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return "";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}

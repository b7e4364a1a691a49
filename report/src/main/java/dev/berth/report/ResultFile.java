package dev.berth.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.berth.core.report.TaskReport;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A task's {@code result.json}: the one place that knows where a task's result file is and what it holds. The
 * reports, the client's task results and the dashboard all read it here, so a file means the same on each.
 *
 * <p>The file is a JSON object. Its values come back by key, sorted: {@link Integer}, {@link Long},
 * {@link java.math.BigInteger} or {@link java.math.BigDecimal} for numbers, exactly as written ({@code 10.0}
 * stays {@code 10.0}); {@link Double} for {@code NaN} and {@code Infinity}, which Python writes; {@link String},
 * {@link Boolean} and null; nested arrays and objects as their compact JSON text.
 *
 * <p>No file, or something other than a regular file in its place, is no result. A file that cannot be read,
 * is larger than {@link #MAX_BYTES}, is not JSON or not a JSON object is unreadable: an
 * {@link IllegalStateException} whose message names the file as {@code <group>/<task>/result.json} (never the
 * absolute path) and says why, one line, as the reports' warnings show it.
 */
public final class ResultFile {

  /** The name of the file a task writes its results to, in its folder. */
  public static final String NAME = "result.json";

  /** Files larger than this are not results but something written by mistake; they are not read. */
  public static final long MAX_BYTES = 4L << 20;

  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .nodeFactory(JsonNodeFactory.withExactBigDecimals(true)) // 10.0 stays 10.0, not 1E+1
      .build();

  private ResultFile() {}

  /**
   * Task {@code t}'s result in the run folder {@code runDir}. The folder recorded in the report is tried first
   * (resolved against {@code runDir} when relative), then {@code <runDir>/<group>/<task>}, so a run folder that
   * was moved or copied still finds its results; a task id that would lead out of the run folder finds none
   * there.
   *
   * @return its values, empty when neither folder has the file
   * @throws IllegalStateException when the file found is unreadable (see the class comment)
   */
  public static Optional<SortedMap<String, Object>> read(Path runDir, TaskReport t) {
    Path file = locate(runDir, t);
    return file == null ? Optional.empty() : Optional.of(parse(file, t));
  }

  /**
   * Task {@code t}'s result in {@code taskDir}, its folder, for a caller that knows where the task ran.
   *
   * @return its values, empty when the folder has no such file
   * @throws IllegalStateException when the file is unreadable (see the class comment)
   */
  public static Optional<SortedMap<String, Object>> readIn(Path taskDir, TaskReport t) {
    Path file = taskDir.resolve(NAME);
    return isFile(file) ? Optional.of(parse(file, t)) : Optional.empty();
  }

  private static Path locate(Path runDir, TaskReport t) {
    Path recorded = null;
    if (t.workdir() != null && !t.workdir().isBlank()) {
      recorded = runDir.resolve(t.workdir()).resolve(NAME);
      if (isFile(recorded)) {
        return recorded;
      }
    }
    Path root = runDir.toAbsolutePath().normalize();
    Path layout = root.resolve(t.group()).resolve(t.id()).normalize().resolve(NAME);
    boolean triedAlready = recorded != null && layout.equals(recorded.toAbsolutePath().normalize());
    return !triedAlready && layout.startsWith(root) && isFile(layout) ? layout : null;
  }

  /**
   * Whether a regular file is there. {@code java.io.File}'s check answers false without an exception,
   * where {@code Files.isRegularFile} makes and drops one with its stack trace: most tasks write no
   * result, and an interrupted sweep's end looks for each started task's.
   */
  private static boolean isFile(Path p) {
    return p.toFile().isFile();
  }

  private static SortedMap<String, Object> parse(Path file, TaskReport t) {
    try {
      return Collections.unmodifiableSortedMap(parse(file));
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalStateException(t.group() + "/" + t.id() + "/" + NAME + ": " + reason(e), e);
    }
  }

  /**
   * Task {@code t}'s result from the bytes of its file, for a caller that opened the file its own way
   * (the dashboard reads only files that belong to the run's owner); the first {@link #MAX_BYTES} + 1
   * bytes of a larger file are enough to refuse it.
   *
   * @throws IllegalStateException when the content is unreadable (see the class comment)
   */
  public static SortedMap<String, Object> parse(byte[] content, TaskReport t) {
    try {
      if (content.length > MAX_BYTES) {
        throw tooLarge();
      }
      return Collections.unmodifiableSortedMap(values(JSON.readTree(content)));
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalStateException(t.group() + "/" + t.id() + "/" + NAME + ": " + reason(e), e);
    }
  }

  /** The values of the result file {@code file}, for a test that has one outside any task's folder. */
  static SortedMap<String, Object> parse(Path file) throws IOException {
    if (Files.size(file) > MAX_BYTES) {
      throw tooLarge();
    }
    return values(JSON.readTree(file.toFile()));
  }

  private static IllegalArgumentException tooLarge() {
    return new IllegalArgumentException("larger than " + Formats.bytes(MAX_BYTES) + "; not read");
  }

  private static SortedMap<String, Object> values(JsonNode root) {
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("not a JSON object; write one such as {\"val_acc\": 0.93}");
    }
    SortedMap<String, Object> values = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      values.put(e.getKey(), value(e.getValue()));
    }
    return values;
  }

  private static Object value(JsonNode n) {
    if (n.isNull() || n.isMissingNode()) {
      return null;
    }
    if (n.isNumber()) {
      return n.numberValue();
    }
    if (n.isTextual()) {
      return n.textValue();
    }
    if (n.isBoolean()) {
      return n.booleanValue();
    }
    return n.toString();
  }

  private static String reason(Exception e) {
    if (e instanceof JsonProcessingException j) {
      String where = j.getLocation() == null
          ? "" : " at line " + j.getLocation().getLineNr() + ", column " + j.getLocation().getColumnNr();
      return "malformed JSON" + where + ": " + j.getOriginalMessage().lines().findFirst().orElse("");
    }
    if (e instanceof FileSystemException f) {
      // Its message is the absolute path, which says nothing the warning's own file name does not.
      return "cannot be read (" + (f.getReason() != null ? f.getReason() : f.getClass().getSimpleName()) + ")";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}

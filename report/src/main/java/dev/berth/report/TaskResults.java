package dev.berth.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What tasks reported about themselves: the flat JSON object each task may write to {@code result.json} in
 * its working folder, by task id.
 *
 * <p>Values are {@link Integer}, {@link Long}, {@link java.math.BigInteger} or {@link java.math.BigDecimal}
 * for JSON numbers ({@link Double} for {@code NaN} and {@code Infinity}, which Python writes), {@link String},
 * {@link Boolean}, null, and for nested arrays and objects the compact JSON text of the value.
 *
 * @param byTask each task's values by key, only for tasks whose {@code result.json} was read
 * @param warnings one line per {@code result.json} that could not be read, naming it relative to the run folder
 */
public record TaskResults(Map<String, Map<String, Object>> byTask, List<String> warnings) {

  /** The name of the file a task writes its results to. */
  public static final String FILE = "result.json";

  /** Files larger than this are not results but something written by mistake; they are skipped with a warning. */
  static final long MAX_BYTES = 4L << 20;

  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .nodeFactory(JsonNodeFactory.withExactBigDecimals(true)) // 10.0 stays 10.0, not 1E+1
      .build();

  /** Copies both, keeping null values and sorting each task's keys. */
  public TaskResults {
    Map<String, Map<String, Object>> copy = new TreeMap<>();
    byTask.forEach((task, values) -> copy.put(task, Collections.unmodifiableSortedMap(new TreeMap<>(values))));
    byTask = Collections.unmodifiableMap(copy);
    warnings = List.copyOf(warnings);
  }

  /** No results. */
  public static TaskResults empty() {
    return new TaskResults(Map.of(), List.of());
  }

  /** Results given directly, e.g. by a test or a caller that collected them another way. */
  public static TaskResults of(Map<String, ? extends Map<String, ?>> byTask) {
    Map<String, Map<String, Object>> m = new TreeMap<>();
    byTask.forEach((k, v) -> m.put(k, new TreeMap<>(v)));
    return new TaskResults(m, List.of());
  }

  /**
   * Reads {@code result.json} from every task's working folder. The folder recorded in the report is tried
   * first (resolved against {@code runDir} when relative), then {@code <runDir>/<group>/<task>} so a run folder
   * that was moved or copied still finds its results. Missing files are skipped silently; unreadable or
   * malformed ones become warnings. Never throws for a task's file. A pending task that never
   * started has no folder yet, so none is looked for.
   */
  public static TaskResults read(Path runDir, RunReport report) {
    Map<String, Map<String, Object>> found = new TreeMap<>();
    List<String> warnings = new ArrayList<>();
    for (GroupReport g : report.groups()) {
      for (TaskReport t : g.tasks()) {
        if (Unstarted.is(t)) {
          continue;
        }
        try {
          readTask(runDir, t).ifPresent(values -> found.put(t.id(), values));
        } catch (IllegalStateException e) {
          warnings.add(e.getMessage());
        }
      }
    }
    return new TaskResults(found, warnings);
  }

  /**
   * One task's {@code result.json}, found and read as {@link #read} does; empty when the task wrote none.
   *
   * @throws IllegalStateException with the warning {@link #read} gives when the file cannot be read
   */
  public static Optional<SortedMap<String, Object>> readTask(Path runDir, TaskReport t) {
    Path file = locate(runDir, t);
    if (file == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Collections.unmodifiableSortedMap(parse(file)));
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalStateException(t.group() + "/" + t.id() + "/" + FILE + ": " + reason(e), e);
    }
  }

  /** The results of one task, empty when it wrote none. */
  public Map<String, Object> forTask(String taskId) {
    return byTask.getOrDefault(taskId, Map.of());
  }

  private static Path locate(Path runDir, TaskReport t) {
    Path recorded = null;
    if (t.workdir() != null && !t.workdir().isBlank()) {
      recorded = runDir.resolve(t.workdir()).resolve(FILE);
      if (isFile(recorded)) {
        return recorded;
      }
    }
    Path root = runDir.toAbsolutePath().normalize();
    Path layout = root.resolve(t.group()).resolve(t.id()).normalize().resolve(FILE);
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

  static SortedMap<String, Object> parse(Path file) throws IOException {
    if (Files.size(file) > MAX_BYTES) {
      throw new IllegalArgumentException("larger than " + Formats.bytes(MAX_BYTES) + "; not read");
    }
    JsonNode root = JSON.readTree(file.toFile());
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
    if (e instanceof java.nio.file.FileSystemException f) {
      // Its message is the absolute path, which says nothing the warning's own file name does not.
      return "cannot be read (" + (f.getReason() != null ? f.getReason() : f.getClass().getSimpleName()) + ")";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}

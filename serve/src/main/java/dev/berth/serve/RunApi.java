package dev.berth.serve;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.report.RunReport;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.report.RunCharts;
import dev.berth.session.HostRuns;
import dev.berth.session.JournalView;
import dev.berth.session.SessionException;
import dev.berth.session.StatusJson;
import dev.berth.spi.SharedReservations.RunEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The API's answers about one run, read as {@code berth ps} and {@code berth status --json} read
 * them: the ledger's entry, the journal's status of every task, and the tail of a task's log.
 */
final class RunApi {

  /** JSON as the API writes it: with {@code < > & '} escaped. */
  static final ObjectMapper JSON = new ObjectMapper();

  static {
    JSON.getFactory().setCharacterEscapes(new HtmlSafeEscapes());
  }
  private static final int TAIL_BYTES = 64 * 1024;
  /** The memory samples file a run writes in its folder. */
  static final String SAMPLES = "samples.jsonl";
  /** The most of the samples file one answer reads (about a day of samples); the next answer goes on. */
  private static final int MAX_SAMPLE_BYTES = 8 * 1024 * 1024;

  private final InstantSource clock;

  RunApi(InstantSource clock) {
    this.clock = clock;
  }

  /** The run as the ledger lists it, with its status from the journal when the journal can be read. */
  ObjectNode run(RunEntry entry) {
    ObjectNode o = HostRuns.json(entry);
    status(entry).ifPresent(s -> o.set("status", s));
    return o;
  }

  /** The journal's status of the run (groups and tasks); empty while the run has not started writing one. */
  Optional<ObjectNode> status(RunEntry entry) {
    try {
      JournalView view = JournalView.read(Path.of(entry.workdir()));
      Instant now = clock.instant();
      return Optional.of(StatusJson.of(view, now, new TaskDetails(view, view.report(now))));
    } catch (SessionException | IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The run's charts as of now, drawn by the report's code ({@link RunCharts}) from the same report
   * {@code report.html} is made of: {@code {"charts": [...]}}, none while no attempt has started or
   * the run has no journal yet.
   */
  ObjectNode charts(RunEntry entry) {
    try {
      return charts(JournalView.read(Path.of(entry.workdir())).report(clock.instant()));
    } catch (SessionException e) {
      return charts(List.of());
    }
  }

  /** The charts of a run's report, as the dashboard receives them. */
  static ObjectNode charts(RunReport report) {
    return charts(RunCharts.of(report).charts());
  }

  private static ObjectNode charts(List<RunCharts.Chart> charts) {
    ObjectNode o = JSON.createObjectNode();
    o.set("charts", JSON.valueToTree(charts));
    return o;
  }

  /** The tasks of the run, an empty array while it has no journal. */
  ArrayNode tasks(RunEntry entry) {
    return status(entry).map(s -> (ArrayNode) s.get("tasks")).orElseGet(JSON::createArrayNode);
  }

  /** A task's log file, and the files of its run through which it is read. */
  record Log(RunFiles files, Path path) {}

  /**
   * The log file of a task named by its id in the journal (never a path from the client): its latest
   * attempt's, or attempt {@code attempt}'s (1 and up) when given; empty for an unknown task or an
   * attempt it has not made.
   */
  Optional<Log> log(RunEntry entry, String taskId, boolean stdout, Integer attempt) {
    try {
      JournalView view = JournalView.read(Path.of(entry.workdir()));
      RunFiles files = RunFiles.of(view);
      for (TaskRecord r : view.state().tasks()) {
        if (!r.spec().id().value().equals(taskId)) {
          continue;
        }
        if (attempt == null) {
          return Optional.of(new Log(files, stdout ? view.layout().stdout(r.spec()) : view.layout().stderr(r.spec())));
        }
        if (attempt < 1 || attempt > r.history().attempts().size()) {
          return Optional.empty();
        }
        Path file = stdout ? view.layout().stdout(r.spec(), attempt) : view.layout().stderr(r.spec(), attempt);
        return Optional.of(new Log(files, file));
      }
      return Optional.empty();
    } catch (SessionException e) {
      return Optional.empty();
    }
  }

  /**
   * The memory samples the run recorded in {@code samples.jsonl} after byte {@code from[0]}, as
   * {@code {"samples": [...]}}, moving {@code from[0]} past them; only whole lines are read.
   */
  static ObjectNode samples(Path runDir, long[] from) {
    ObjectNode o = JSON.createObjectNode();
    ArrayNode array = o.putArray("samples");
    Optional<RunFiles.Chunk> read = RunFiles.of(runDir).read(runDir.resolve(SAMPLES),
        RunFiles.from(from[0], MAX_SAMPLE_BYTES));
    if (read.isEmpty()) {
      return o;
    }
    String text = new String(read.get().bytes(), StandardCharsets.UTF_8);
    int end = text.lastIndexOf('\n');
    if (end < 0) {
      return o;
    }
    for (String line : text.substring(0, end).split("\n")) {
      try {
        array.add(JSON.readTree(line));
      } catch (IOException e) {
        // a line cut by a crash; the next ones are whole
      }
    }
    from[0] += text.substring(0, end + 1).getBytes(StandardCharsets.UTF_8).length;
    return o;
  }

  /** The last {@code lines} lines of a log, as an object {@code {"lines": [...]}}. */
  static ObjectNode tail(Log log, int lines) {
    ObjectNode o = JSON.createObjectNode();
    ArrayNode array = o.putArray("lines");
    lastLines(log, lines).forEach(array::add);
    return o;
  }

  /**
   * The last lines of a log, reading no more than its last 64 KiB; none when it does not exist yet, or
   * is not a file of its run (see {@link RunFiles}).
   */
  static List<String> lastLines(Log log, int count) {
    Optional<RunFiles.Chunk> read = log.files().read(log.path(), RunFiles.last(TAIL_BYTES));
    if (read.isEmpty()) {
      return List.of();
    }
    List<String> all = Arrays.asList(new String(read.get().bytes(), StandardCharsets.UTF_8).split("\n", -1));
    if (read.get().start() > 0 && !all.isEmpty()) {
      all = all.subList(1, all.size()); // the first line was cut
    }
    if (!all.isEmpty() && all.get(all.size() - 1).isEmpty()) {
      all = all.subList(0, all.size() - 1);
    }
    return all.subList(Math.max(0, all.size() - count), all.size());
  }
}

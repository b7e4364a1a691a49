package dev.berth.serve;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.report.FailureTails;
import dev.berth.session.HostRuns;
import dev.berth.session.JournalView;
import dev.berth.session.SessionException;
import dev.berth.session.StatusJson;
import dev.berth.spi.SharedReservations.RunEntry;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
      return Optional.of(StatusJson.of(view, clock.instant(), new StderrTails(view.layout())));
    } catch (SessionException | IOException e) {
      return Optional.empty();
    }
  }

  /**
   * Adds {@code stderrTail} to each task with an attempt that has not succeeded: the last lines of its
   * latest attempt's standard error, read as the reports read them.
   */
  private record StderrTails(RunLayout layout) implements StatusJson.Extras {
    @Override
    public void run(ObjectNode root) {}

    @Override
    public void task(TaskRecord record, ObjectNode node) {
      List<Attempt> attempts = record.history().attempts();
      if (attempts.isEmpty() || record.state() == TaskState.SUCCEEDED) {
        return;
      }
      String tail = FailureTails.of(layout.taskDir(record.spec()), attempts.get(attempts.size() - 1).number());
      if (!tail.isEmpty()) {
        node.put("stderrTail", tail);
      }
    }
  }

  /** The tasks of the run, an empty array while it has no journal. */
  ArrayNode tasks(RunEntry entry) {
    return status(entry).map(s -> (ArrayNode) s.get("tasks")).orElseGet(JSON::createArrayNode);
  }

  /** The log file of a task named by its id in the journal (never a path from the client). */
  Optional<Path> log(RunEntry entry, String taskId, boolean stdout) {
    try {
      JournalView view = JournalView.read(Path.of(entry.workdir()));
      for (TaskRecord r : view.state().tasks()) {
        if (r.spec().id().value().equals(taskId)) {
          return Optional.of(stdout ? view.layout().stdout(r.spec()) : view.layout().stderr(r.spec()));
        }
      }
      return Optional.empty();
    } catch (SessionException e) {
      return Optional.empty();
    }
  }

  /** The last {@code lines} lines of a log, as an object {@code {"lines": [...]}}. */
  static ObjectNode tail(Path log, int lines) {
    ObjectNode o = JSON.createObjectNode();
    ArrayNode array = o.putArray("lines");
    lastLines(log, lines).forEach(array::add);
    return o;
  }

  /** The last lines of a file, reading no more than its last 64 KiB; none when it does not exist yet. */
  static List<String> lastLines(Path file, int count) {
    if (!Files.isRegularFile(file)) {
      return List.of();
    }
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long start = Math.max(0, f.length() - TAIL_BYTES);
      byte[] bytes = new byte[(int) (f.length() - start)];
      f.seek(start);
      f.readFully(bytes);
      List<String> all = Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\n", -1));
      if (start > 0 && !all.isEmpty()) {
        all = all.subList(1, all.size()); // the first line was cut
      }
      if (!all.isEmpty() && all.get(all.size() - 1).isEmpty()) {
        all = all.subList(0, all.size() - 1);
      }
      return all.subList(Math.max(0, all.size() - count), all.size());
    } catch (IOException e) {
      return List.of();
    }
  }
}

package dev.berth.serve;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.AttemptStage;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.os.LogTails;
import dev.berth.report.ResultFile;
import dev.berth.session.JournalView;
import dev.berth.session.StatusJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/**
 * What the dashboard adds to each task of {@code berth status --json}'s shape: its matrix values
 * ({@code params}), the results it reported ({@code results}, from its {@code result.json} as the reports parse it, read only as a file of the run: {@link RunFiles}), every attempt with its device, start,
 * end and outcome ({@code attempts}, for the task page's links to each attempt's log; a Slurm job's start and end are
 * Slurm's, with its {@code job} id, {@code jobState}, {@code nodes}, {@code queueWaitMs} and its measured
 * {@code peakMemoryBytes}), and for a task that has not succeeded the
 * last lines of its latest attempt's stderr ({@code stderrTail}, read as the reports read them).
 */
final class TaskDetails implements StatusJson.Extras {

  private static final ObjectMapper PLAIN = new ObjectMapper();

  private final JournalView view;
  private final RunFiles files;
  private final Map<String, TaskReport> reports = new HashMap<>();

  /** Details of the tasks of {@code view}, whose report as of now is {@code report}. */
  TaskDetails(JournalView view, RunReport report) {
    this.view = view;
    this.files = RunFiles.of(view);
    report.groups().forEach(g -> g.tasks().forEach(t -> reports.put(t.id(), t)));
  }

  @Override
  public void run(ObjectNode root) {}

  @Override
  public void task(TaskRecord record, ObjectNode node) {
    if (!record.spec().params().isEmpty()) {
      ObjectNode params = node.putObject("params");
      record.spec().params().forEach(params::put);
    }
    TaskReport reported = reports.get(record.spec().id().value());
    if (record.state() == TaskState.SUCCEEDED && reported != null) {
      try {
        Path file = view.layout().taskDir(record.spec()).resolve(ResultFile.NAME);
        Optional<SortedMap<String, Object>> values = files.read(file, RunFiles.from(0, (int) ResultFile.MAX_BYTES + 1))
            .map(read -> ResultFile.parse(read.bytes(), reported));
        values.ifPresent(v -> {
          ObjectNode o = node.putObject("results");
          v.forEach((k, value) -> o.set(k, PLAIN.valueToTree(value)));
        });
      } catch (IllegalStateException unreadable) {
        // the report warns about a result.json it cannot read; the dashboard shows the task without results
      }
    }
    List<Attempt> attempts = record.history().attempts();
    List<String> devices = AttemptStage.shownDevices(record.history());
    ArrayNode array = node.putArray("attempts");
    for (Attempt a : attempts) {
      ObjectNode o = array.addObject().put("number", a.number()).put("device", devices.get(a.number() - 1))
          .put("startedAt", a.ranFrom().toEpochMilli());
      a.end().ifPresent(e -> o.put("endedAt", a.ranUntil().orElseThrow().toEpochMilli()).put("outcome", e.outcome().name()));
      a.clusterId().ifPresent(job -> o.put("job", job));
      a.accounting().ifPresent(c -> {
        o.put("jobState", c.state()).put("nodes", c.nodes());
        c.queueWait().ifPresent(w -> o.put("queueWaitMs", w.toMillis()));
      });
      a.usage().peakHostMemoryBytes().ifPresent(peak -> o.put("peakMemoryBytes", peak));
    }
    if (attempts.isEmpty() || record.state() == TaskState.SUCCEEDED) {
      return;
    }
    String tail = failureTail(record.spec(), attempts.get(attempts.size() - 1).number());
    if (!tail.isEmpty()) {
      node.put("stderrTail", tail);
    }
  }

  /**
   * The lines the reports show for an attempt (its own stderr, else the task's
   * {@code stderr.log} of a run of an earlier Berth), read only as a file of the run ({@link RunFiles}).
   */
  private String failureTail(TaskSpec task, int attempt) {
    RunFiles.Reader<RunFiles.Chunk> end = RunFiles.last(LogTails.STDERR_BYTES);
    return files.read(view.layout().stderr(task, attempt), end)
        .or(() -> files.read(view.layout().stderr(task), end))
        .map(read -> LogTails.lastLines(new String(read.bytes(), StandardCharsets.UTF_8), LogTails.FAILURE_LINES))
        .orElse("");
  }
}

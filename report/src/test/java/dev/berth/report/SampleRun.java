package dev.berth.report;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.report.TrainCall;
import dev.berth.core.report.Totals;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A hand-made run with fixed instants: a data step, a 2x2 matrix sweep on a GPU and the CPU with one retry and
 * one failure, and a group whose task id and error hold markup and pipes.
 */
final class SampleRun {

  static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
  static final long MIB = 1L << 20;
  static final long GIB = 1L << 30;
  static final String SCRIPT = "<script>alert(1)</script>";
  static final String EVIL_ID = "eval-" + SCRIPT;
  static final String EVIL_ERROR = SCRIPT + " | broken \"pipe\" & 'quote'";
  static final String NAN_ERROR = "Traceback (most recent call last):\n  File \"train.py\", line 3\nValueError: loss is nan | diverged";

  private SampleRun() {}

  static RunReport report() {
    GroupReport prepare = group("prepare", List.of(
        task("make-data", "prepare", TaskStatus.SUCCEEDED, params(), null,
            attempt(1, 0, 20, 0, "cpu", 512 * MIB, 0, "SUCCEEDED", null))));
    GroupReport train = group("train", List.of(
        task("train-0.1-1", "train", TaskStatus.SUCCEEDED, params("lr", "0.1", "seed", "1"), null,
            attempt(1, 20, 140, 0, "cuda:0", 2 * GIB, 3 * GIB, "SUCCEEDED", null)),
        task("train-0.1-2", "train", TaskStatus.SUCCEEDED, params("lr", "0.1", "seed", "2"), null,
            attempt(1, 20, 50, 137, "cuda:0", 2 * GIB, 3 * GIB, "HOST_OOM", "killed by the kernel's OOM killer"),
            attempt(2, 140, 270, 0, "cuda:0", 2 * GIB, 3 * GIB, "SUCCEEDED", null)),
        task("train-0.01-1", "train", TaskStatus.SUCCEEDED, params("lr", "0.01", "seed", "1"), null,
            attempt(1, 20, 180, 0, "cpu", GIB, 0, "SUCCEEDED", null)),
        task("train-0.01-2", "train", TaskStatus.FAILED, params("lr", "0.01", "seed", "2"), NAN_ERROR,
            attempt(1, 25, 100, 1, "cpu", GIB, 0, "FAILED", "exit code 1"))));
    GroupReport evaluate = group("evaluate", List.of(
        task(EVIL_ID, "evaluate", TaskStatus.FAILED, params(), EVIL_ERROR,
            attempt(1, 270, 275, 2, "cpu", 256 * MIB, 0, "FAILED", "exit code 2")),
        task("summarize", "evaluate", TaskStatus.UNREACHABLE, params(), "needs " + EVIL_ID + ", which failed")));
    List<GroupReport> groups = List.of(prepare, train, evaluate);
    List<TaskReport> all = new ArrayList<>();
    groups.forEach(g -> all.addAll(g.tasks()));
    return new RunReport("sweep-demo", RunStatus.FAILED, T0, T0.plusSeconds(300), Totals.of(all), groups);
  }

  /** A run of one group {@code g} holding these tasks, from {@link #T0} to ten minutes later. */
  static RunReport single(TaskReport... tasks) {
    GroupReport g = group("g", List.of(tasks));
    RunStatus status = g.totals().succeeded() == g.totals().total() ? RunStatus.SUCCEEDED : RunStatus.FAILED;
    return new RunReport("one", status, T0, T0.plusSeconds(600), g.totals(), List.of(g));
  }

  static Map<String, Map<String, Object>> results() {
    Map<String, Map<String, Object>> r = new TreeMap<>();
    r.put("make-data", values("rows", 60000, "notes", "split, \"shuffled\"\nseed 1"));
    r.put("train-0.1-1", values("val_acc", dec("0.9312"), "train_acc", dec("0.98"), "load_time", dec("1.5"),
        "train_time", dec("118.2")));
    r.put("train-0.1-2", values("val_acc", dec("0.9400"), "train_acc", dec("0.97"), "load_time", dec("1.4"),
        "train_time", 125));
    r.put("train-0.01-1", values("val_acc", dec("0.9105"), "train_acc", dec("0.95"), "load_time", dec("1.6"),
        "train_time", dec("150.0")));
    r.put(EVIL_ID, values("note", SCRIPT + "|x"));
    return r;
  }

  static TaskResults taskResults() {
    return TaskResults.of(results());
  }

  static GroupReport group(String name, List<TaskReport> tasks) {
    return new GroupReport(name, Totals.of(tasks), tasks);
  }

  static TaskReport task(
      String id, String group, TaskStatus status, SortedMap<String, String> params, String error, AttemptReport... attempts) {
    return new TaskReport(id, group, status, List.of("python3", "train.py", "--id", id), group + "/" + id, params, error,
        List.of(attempts));
  }

  /** An attempt from {@code from} to {@code to} seconds after {@link #T0}. */
  static AttemptReport attempt(
      int number, long from, long to, int exit, String device, long memory, long gpuMemory, String outcome, String error) {
    return new AttemptReport(number, T0.plusSeconds(from), T0.plusSeconds(to), exit, device, 1000 + number, memory,
        gpuMemory, 1.0, outcome, error);
  }

  /**
   * A two-stage attempt from {@code from} to {@code to} seconds after {@link #T0} that ran out of GPU memory
   * in its first train call and trained on {@code cuda:1} in its second.
   */
  static AttemptReport retrainedAttempt(int number, long from, long to) {
    AttemptReport plain = attempt(number, from, to, 0, "cuda:1", GIB, 3 * GIB, "SUCCEEDED", null);
    List<TrainCall> calls = List.of(
        new TrainCall(1, "cuda:0", 3 * GIB, T0.plusSeconds(from + 1), T0.plusSeconds(from + 2), "GPU_OOM",
            "CUDA out of memory"),
        new TrainCall(2, "cuda:1", 3 * GIB, T0.plusSeconds(from + 3), T0.plusSeconds(to), TrainCall.TRAINED, null));
    return new AttemptReport(plain.number(), plain.startedAt(), plain.finishedAt(), plain.exitCode(), plain.device(),
        plain.pid(), null, plain.reservedMemoryBytes(), plain.reservedGpuMemoryBytes(), plain.reservedCpus(),
        plain.outcome(), null, null, 1000L, 2000L, null, null, null, null, null, calls);
  }

  static SortedMap<String, String> params(String... kv) {
    SortedMap<String, String> m = new TreeMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  static Map<String, Object> values(Object... kv) {
    Map<String, Object> m = new TreeMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static BigDecimal dec(String s) {
    return new BigDecimal(s);
  }
}

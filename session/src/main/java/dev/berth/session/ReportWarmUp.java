package dev.berth.session;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.report.Totals;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.report.CsvResults;
import dev.berth.report.HtmlOptions;
import dev.berth.report.HtmlReport;
import dev.berth.report.MarkdownReport;
import dev.berth.report.TaskResults;
import dev.berth.runtime.engine.RunListener;
import dev.berth.runtime.exec.BackgroundThreads;
import dev.berth.report.ReportJson;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes the reports of a made-up run into memory, on a thread of its own, once the run's
 * first task has started: the classes, JSON serializers and compiled code the reports need are then
 * ready when the run ends, instead of costing the end a fifth of a second. The run's own work is
 * under way by then, so this takes no time from its start; and the thread runs at the lowest
 * priority, so it takes no time from the run's tasks either, only what they leave idle.
 */
final class ReportWarmUp implements RunListener {

  private static final int TASKS = 200;

  private boolean started;

  @Override
  public void taskEvent(TaskRecord task, TaskEvent event) {
    if (!started && event instanceof TaskEvent.Started) {
      started = true;
      Thread t = new Thread(ReportWarmUp::warmUp, "berth-report-warm-up");
      t.setDaemon(true);
      t.start();
    }
  }

  private static void warmUp() {
    BackgroundThreads.lowerCurrent(); // on idle CPU only: a short run's tasks need every core
    try {
      writeSample();
    } catch (IOException | RuntimeException | LinkageError e) {
      // only time is at stake: the run's end writes its reports, and says why if it cannot
    }
  }

  /** Writes every report of the made-up run into memory. */
  static void writeSample() throws IOException {
    RunReport sample = sample();
    ReportJson.warmUp(sample);
    HtmlReport.render(sample, HtmlOptions.defaults());
    MarkdownReport.render(sample, TaskResults.empty(), null);
    CsvResults.render(sample, Map.of());
  }

  /**
   * A made-up run of {@value #TASKS} tasks, half of them ran: enough calls of each writer's methods
   * (a field, a string, a number per task) for the compiler to take them up, as the journal's JSON,
   * written with another writer, no longer does during the run.
   */
  private static RunReport sample() {
    Instant t = Instant.EPOCH;
    AttemptReport attempt = new AttemptReport(1, t, t.plusSeconds(1), 0, "cpu", 1, null, 1L << 20, 0, 1.0,
        "SUCCEEDED", null, null, null, null, 1L << 19, 0.5, null, true, null);
    List<TaskReport> tasks = new ArrayList<>(TASKS);
    for (int i = 0; i < TASKS; i++) {
      boolean ran = i % 2 == 0;
      tasks.add(new TaskReport("t-" + i, "g", ran ? TaskStatus.SUCCEEDED : TaskStatus.PENDING, List.of("true"),
          "g/t-" + i, new TreeMap<>(Map.of("a", Integer.toString(i))), null, ran ? List.of(attempt) : List.of()));
    }
    GroupReport group = new GroupReport("g", Totals.of(tasks), tasks);
    return new RunReport("warm-up", RunStatus.INTERRUPTED, t, t.plusSeconds(2), group.totals(), List.of(group));
  }
}

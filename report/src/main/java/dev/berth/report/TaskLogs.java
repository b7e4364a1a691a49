package dev.berth.report;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which tasks have no {@code stdout.log} or no {@code stderr.log} in their folder, so the page links
 * only logs that are there. A process Berth starts always has both (they are made before it runs);
 * a call in an engine or a cluster job makes its own, an engine's call only when it writes. So only
 * the tasks whose last attempt ran under another's name ({@link AttemptReport#clusterJob()}) are
 * looked at: two file checks each, none for a run of plain processes.
 *
 * @param withoutStdout ids of the tasks whose folder has no {@code stdout.log}
 * @param withoutStderr ids of the tasks whose folder has no {@code stderr.log}
 */
public record TaskLogs(Set<String> withoutStdout, Set<String> withoutStderr) {

  /** The name of a task's standard output log in its folder. */
  public static final String STDOUT = "stdout.log";

  /** The name of a task's standard error log in its folder. */
  public static final String STDERR = "stderr.log";

  /** Every task's logs taken as there: for a page rendered without its run folder at hand. */
  public static final TaskLogs ASSUMED = new TaskLogs(Set.of(), Set.of());

  /** Copies both sets. */
  public TaskLogs {
    withoutStdout = Set.copyOf(withoutStdout);
    withoutStderr = Set.copyOf(withoutStderr);
  }

  /** Looks in {@code <runDir>/<group>/<task>}, where the page's links point, for the tasks that may lack logs. */
  public static TaskLogs read(Path runDir, RunReport report) {
    Set<String> noStdout = new TreeSet<>();
    Set<String> noStderr = new TreeSet<>();
    for (GroupReport g : report.groups()) {
      for (TaskReport t : g.tasks()) {
        if (t.attempts().isEmpty() || t.attempts().get(t.attempts().size() - 1).clusterJob() == null) {
          continue;
        }
        Path dir = runDir.resolve(t.group()).resolve(t.id());
        if (!Files.exists(dir.resolve(STDOUT))) {
          noStdout.add(t.id());
        }
        if (!Files.exists(dir.resolve(STDERR))) {
          noStderr.add(t.id());
        }
      }
    }
    return new TaskLogs(noStdout, noStderr);
  }

  /** Whether the task's folder has its {@code stdout.log}, as far as this knows. */
  public boolean hasStdout(String taskId) {
    return !withoutStdout.contains(taskId);
  }

  /** Whether the task's folder has its {@code stderr.log}, as far as this knows. */
  public boolean hasStderr(String taskId) {
    return !withoutStderr.contains(taskId);
  }
}

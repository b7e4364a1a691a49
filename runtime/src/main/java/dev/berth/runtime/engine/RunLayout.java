package dev.berth.runtime.engine;

import dev.berth.core.model.TaskSpec;
import dev.berth.report.ReportFiles;
import java.nio.file.Path;

/**
 * Where a run's files live: {@code <run>/<group>/<task>/attempt-N.stdout.log} and
 * {@code attempt-N.stderr.log} for each attempt, {@code stdout.log} and {@code stderr.log} showing
 * the latest attempt's, and {@code <run>/report.json}. Task folders may live under another root, one that the nodes of a
 * cluster share ({@code slurm.workdir-root}).
 *
 * @param runDir the run's folder, absolute
 * @param tasksRoot the folder the task folders go under, absolute; usually {@code runDir}
 */
public record RunLayout(Path runDir, Path tasksRoot) {

  /** Makes the folders absolute and normal. */
  public RunLayout {
    runDir = runDir.toAbsolutePath().normalize();
    tasksRoot = tasksRoot.toAbsolutePath().normalize();
  }

  /** A layout whose task folders are in the run's folder. */
  public RunLayout(Path runDir) {
    this(runDir, runDir);
  }

  /** The same layout with the task folders under {@code root}. */
  public RunLayout withTasksRoot(Path root) {
    return new RunLayout(runDir, root);
  }

  /** The task's working folder. */
  public Path taskDir(TaskSpec task) {
    return tasksRoot.resolve(task.group()).resolve(task.id().value());
  }

  /** The task's standard output as people look for it: a link to the latest attempt's. */
  public Path stdout(TaskSpec task) {
    return taskDir(task).resolve("stdout.log");
  }

  /** The task's standard error as people look for it: a link to the latest attempt's. */
  public Path stderr(TaskSpec task) {
    return taskDir(task).resolve("stderr.log");
  }

  /** The file that receives the standard output of one attempt of the task. */
  public Path stdout(TaskSpec task, int attempt) {
    return taskDir(task).resolve("attempt-" + attempt + ".stdout.log");
  }

  /** The file that receives the standard error of one attempt of the task. */
  public Path stderr(TaskSpec task, int attempt) {
    return taskDir(task).resolve("attempt-" + attempt + ".stderr.log");
  }

  /** The run's JSON report. */
  public Path reportJson() {
    return runDir.resolve(ReportFiles.JSON);
  }
}

package dev.berth.runtime.engine;

import dev.berth.core.model.TaskSpec;
import java.nio.file.Path;

/**
 * Where a run's files live: {@code <run>/<group>/<task>/stdout.log}, {@code stderr.log}, and
 * {@code <run>/report.json}. Task folders may live under another root, one that the nodes of a
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

  /** The file that receives the task's standard output. */
  public Path stdout(TaskSpec task) {
    return taskDir(task).resolve("stdout.log");
  }

  /** The file that receives the task's standard error. */
  public Path stderr(TaskSpec task) {
    return taskDir(task).resolve("stderr.log");
  }

  /** The run's JSON report. */
  public Path reportJson() {
    return runDir.resolve("report.json");
  }
}

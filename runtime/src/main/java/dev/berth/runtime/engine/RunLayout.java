package dev.berth.runtime.engine;

import dev.berth.core.model.TaskSpec;
import java.nio.file.Path;

/**
 * Where a run's files live: {@code <run>/<group>/<task>/stdout.log}, {@code stderr.log}, and
 * {@code <run>/report.json}.
 *
 * @param runDir the run's folder, absolute
 */
public record RunLayout(Path runDir) {

  /** Makes the folder absolute and normal. */
  public RunLayout {
    runDir = runDir.toAbsolutePath().normalize();
  }

  /** The task's working folder. */
  public Path taskDir(TaskSpec task) {
    return runDir.resolve(task.group()).resolve(task.id().value());
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

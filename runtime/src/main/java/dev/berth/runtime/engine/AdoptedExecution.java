package dev.berth.runtime.engine;

import dev.berth.core.model.TaskId;
import dev.berth.runtime.contain.Leftovers;
import dev.berth.runtime.exec.ProcessTrees;
import dev.berth.spi.Execution;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A task process started by an earlier scheduler of the same run and still alive when the run
 * resumed. Berth cannot learn its exit code (it is not Berth's child); its supervisor marks it.
 * When it ends, what it left running ends with it: the processes carrying its task's variables and
 * the members of the task group the earlier Berth kept it in.
 */
final class AdoptedExecution implements Execution {

  private final ProcessHandle process;
  private final Path runDir;
  private final TaskId task;
  private final int attempt;
  private final List<Path> groups;

  private AdoptedExecution(ProcessHandle process, Path runDir, TaskId task, int attempt, List<Path> groups) {
    this.process = process;
    this.runDir = runDir;
    this.task = task;
    this.attempt = attempt;
    this.groups = groups;
  }

  /** The process of {@code attempt} of {@code task} of the run in {@code runDir}, with the task group it is in now. */
  static AdoptedExecution of(ProcessHandle process, Path runDir, TaskId task, int attempt) {
    return new AdoptedExecution(process, runDir, task, attempt, Leftovers.staleGroupsOf(process.pid()));
  }

  /** The variable that every process of the run in {@code runDir} carries. */
  static String runEntry(Path runDir) {
    return "BERTH_RUN_DIR=" + runDir;
  }

  /** The variable that every process of {@code task} carries. */
  static String taskEntry(TaskId task) {
    return "BERTH_TASK_ID=" + task.value();
  }

  /** Completes when the process ends. */
  CompletableFuture<ProcessHandle> onExit() {
    return process.onExit();
  }

  /** Kills what the attempt left running once its process ended. */
  void endLeftovers() {
    Leftovers.end(List.of(runEntry(runDir), taskEntry(task), "BERTH_ATTEMPT=" + attempt), List.of(), groups);
  }

  @Override
  public long pid() {
    return process.pid();
  }

  @Override
  public boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void terminate(long graceMillis) {
    Set<ProcessHandle> tree = ProcessTrees.of(process);
    ProcessTrees.terminate(tree);
    CompletableFuture.delayedExecutor(Math.max(0, graceMillis), TimeUnit.MILLISECONDS)
        .execute(() -> {
          ProcessTrees.killAlive(tree);
          endLeftovers();
        });
  }
}

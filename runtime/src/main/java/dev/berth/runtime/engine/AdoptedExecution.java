package dev.berth.runtime.engine;

import dev.berth.core.model.TaskId;
import dev.berth.runtime.contain.Leftovers;
import dev.berth.runtime.exec.ProcessTrees;
import dev.berth.spi.Execution;
import dev.berth.spi.Timers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

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
  private final ProcessTable processes;
  private final Timers timers;

  private AdoptedExecution(ProcessHandle process, Path runDir, TaskId task, int attempt, List<Path> groups,
      ProcessTable processes, Timers timers) {
    this.process = process;
    this.processes = processes;
    this.timers = timers;
    this.runDir = runDir;
    this.task = task;
    this.attempt = attempt;
    this.groups = groups;
  }

  /**
   * The process of {@code attempt} of {@code task} of the run in {@code runDir}, with the task group
   * it is in now; what it leaves is ended through {@code processes}, and a termination's grace period
   * runs on the engine's {@code timers}. A group the earlier Berth left frozen (it died while it
   * signalled the task's container) is thawed: a frozen process neither exits nor dies of a signal.
   */
  static AdoptedExecution of(ProcessHandle process, Path runDir, TaskId task, int attempt, ProcessTable processes,
      Timers timers) {
    List<Path> groups = Leftovers.staleGroupsOf(process.pid());
    Leftovers.thaw(groups);
    return new AdoptedExecution(process, runDir, task, attempt, groups, processes, timers);
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
    processes.endLeftovers(List.of(runEntry(runDir), taskEntry(task), "BERTH_ATTEMPT=" + attempt), List.of(), groups);
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
    timers.schedule(Duration.ofMillis(Math.max(0, graceMillis)), () -> {
      ProcessTrees.killAlive(tree);
      endLeftovers();
    });
  }
}

package dev.berth.runtime.engine;

import dev.berth.core.model.TaskId;
import dev.berth.runtime.exec.Supervision;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Finds the task processes of a run that are still alive: the supervisors Berth started them under
 * ({@link Supervision}), by the variables Berth gave them ({@code BERTH_RUN_DIR},
 * {@code BERTH_TASK_ID}, {@code BERTH_ATTEMPT}). The journal records a launch before the process
 * exists, so it may hold no pid; this is how a resumed run finds the process. What the task started
 * carries the same variables but is not the task: once the task's process ended, a child that
 * outlived it is a leftover to end, never the task to wait for. Looks through a {@link ProcessTable}:
 * on this machine, {@code /proc}; elsewhere it finds nothing.
 */
final class Orphans {

  /**
   * A task process found alive.
   *
   * @param process the process
   * @param attempt the attempt it runs
   * @param env its Berth variables
   */
  record Orphan(ProcessHandle process, int attempt, Map<String, String> env) {}

  private Orphans() {}

  /** The live task processes (supervisors) of the run in {@code runDir}, by task, looked for in {@code processes}. */
  static Map<TaskId, Orphan> find(Path runDir, ProcessTable processes) {
    Map<TaskId, Orphan> found = new HashMap<>();
    String dir = runDir.toString();
    processes.all().forEach(p -> processes.berthVariables(p.pid()).ifPresent(env -> {
      if (!dir.equals(env.get("BERTH_RUN_DIR")) || env.get("BERTH_TASK_ID") == null || !supervises(p.pid(), processes)) {
        return;
      }
      boolean forkOfTask = p.parent().filter(parent -> supervises(parent.pid(), processes))
          .flatMap(parent -> processes.berthVariables(parent.pid()))
          .map(penv -> dir.equals(penv.get("BERTH_RUN_DIR"))).orElse(false);
      if (forkOfTask) {
        return; // the supervisor's fork before it runs the command looks like the supervisor for a moment
      }
      try {
        found.put(TaskId.of(env.get("BERTH_TASK_ID")),
            new Orphan(p, Integer.parseInt(env.getOrDefault("BERTH_ATTEMPT", "0")), env));
      } catch (IllegalArgumentException e) {
        // not a process of ours after all
      }
    }));
    return found;
  }

  private static boolean supervises(long pid, ProcessTable processes) {
    return processes.commandLine(pid).map(Supervision::isSupervisor).orElse(false);
  }
}

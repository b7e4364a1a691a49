package dev.berth.runtime.engine;

import dev.berth.core.model.TaskId;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Finds the task processes of a run that are still alive, by the variables Berth gave them
 * ({@code BERTH_RUN_DIR}, {@code BERTH_TASK_ID}, {@code BERTH_ATTEMPT}). The journal records a
 * launch before the process exists, so it holds no pid; this is how a resumed run finds the
 * process. Looks through a {@link ProcessTable}: on this machine, {@code /proc}; elsewhere it finds nothing.
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

  /** The live top-level task processes of the run in {@code runDir}, by task. */
  static Map<TaskId, Orphan> find(Path runDir, ProcessTable processes) {
    Map<TaskId, Orphan> found = new HashMap<>();
    String dir = runDir.toString();
    processes.all().forEach(p -> processes.berthVariables(p.pid()).ifPresent(env -> {
      if (!dir.equals(env.get("BERTH_RUN_DIR")) || env.get("BERTH_TASK_ID") == null) {
        return;
      }
      boolean childOfTask = p.parent().flatMap(parent -> processes.berthVariables(parent.pid()))
          .map(penv -> dir.equals(penv.get("BERTH_RUN_DIR"))).orElse(false);
      if (childOfTask) {
        return; // the task's own children carry the same variables; the top process stands for them
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
}

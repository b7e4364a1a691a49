package dev.berth.runtime.engine;

import dev.berth.core.model.TaskId;
import dev.berth.runtime.exec.Supervision;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the task processes of a run that are still alive: the supervisors Berth started them under
 * ({@link Supervision}), by the variables Berth gave them ({@code BERTH_RUN_DIR},
 * {@code BERTH_TASK_ID}, {@code BERTH_ATTEMPT}). The journal records a launch before the process
 * exists, so it may hold no pid; this is how a resumed run finds the process. What the task started
 * carries the same variables but is not the task: once the task's process ended, a child that
 * outlived it is a leftover to end, never the task to wait for. Reads {@code /proc}; elsewhere it
 * finds nothing.
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

  /** The live task processes (supervisors) of the run in {@code runDir}, by task. */
  static Map<TaskId, Orphan> find(Path runDir) {
    Map<TaskId, Orphan> found = new HashMap<>();
    String dir = runDir.toString();
    ProcessHandle.allProcesses().forEach(p -> environment(p.pid()).ifPresent(env -> {
      if (!dir.equals(env.get("BERTH_RUN_DIR")) || env.get("BERTH_TASK_ID") == null || !supervises(p.pid())) {
        return;
      }
      boolean forkOfTask = p.parent().filter(parent -> supervises(parent.pid())).flatMap(parent -> environment(parent.pid()))
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

  private static boolean supervises(long pid) {
    try {
      byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      return Supervision.isSupervisor(List.of(new String(raw, StandardCharsets.UTF_8).split("\0")));
    } catch (IOException | SecurityException e) {
      return false;
    }
  }

  private static Optional<Map<String, String>> environment(long pid) {
    Path file = Path.of("/proc", Long.toString(pid), "environ");
    try {
      String raw = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
      Map<String, String> env = new HashMap<>();
      for (String entry : raw.split("\0")) {
        int eq = entry.indexOf('=');
        if (eq > 0 && entry.startsWith("BERTH_")) {
          env.put(entry.substring(0, eq), entry.substring(eq + 1));
        }
      }
      return Optional.of(env);
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }
}

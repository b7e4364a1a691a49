package dev.berth.host;

import java.util.Set;

/**
 * Which task processes of a run whose Berth process is gone still live: the tasks of a killed run
 * go on (so a resumed run can adopt them), and what the run reserved for a task stays held while a
 * process of that task (the task's own, or a child it left) uses it.
 */
@FunctionalInterface
public interface TaskProcesses {

  /**
   * Stands, among the tasks found, for a process of the run that cannot be told apart from one of
   * its tasks, or that serves several (a warm pool's engine): everything the run holds stays.
   */
  String UNKNOWN = "*";

  /** A host without task processes to find (a run alone, whose rows nobody else reads). */
  TaskProcesses NONE = (runDir, uid, berthStart) -> Set.of();

  /**
   * The tasks of the run in {@code runDir} with a process that may still live, by id, with
   * {@link #UNKNOWN} among them when a process may be one of them but says not which; empty when
   * none lives.
   *
   * @param runDir the run's folder, as its tasks' {@code BERTH_RUN_DIR} names it
   * @param uid the account the run belonged to
   * @param berthStart when its first task process may have started (clock ticks after boot): its Berth
   *     process's start, or that of the first run it resumed, whose tasks it adopted
   */
  Set<String> liveTasks(String runDir, long uid, long berthStart);
}

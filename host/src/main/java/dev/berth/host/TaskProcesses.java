package dev.berth.host;

import java.util.Set;

/**
 * Whether any task process of a run whose Berth process is gone still lives: the tasks of a killed
 * run go on (so a resumed run can adopt them), and what the run reserved for them stays held
 * while they use it.
 */
@FunctionalInterface
public interface TaskProcesses {

  /** A host without task processes to find (a run alone, whose rows nobody else reads). */
  TaskProcesses NONE = (runDir, uid, berthStart) -> false;

  /**
   * Whether a process of the run in {@code runDir} may still live: a process that says so, or one
   * that cannot be told apart from one.
   *
   * @param runDir the run's folder, as its tasks' {@code BERTH_RUN_DIR} names it
   * @param uid the account the run belonged to
   * @param berthStart when its Berth process started (clock ticks after boot): its tasks started later
   */
  boolean anyAlive(String runDir, long uid, long berthStart);

  /**
   * The run folders ({@code BERTH_RUN_DIR}) of the live task processes of runs that take part in the
   * host ledger {@code ledger} (their {@link dev.berth.spi.SharedReservations#LEDGER_VARIABLE}) that this looker can tell: those whose
   * environment it may read (its own user's; every one for root). A ledger made anew after its
   * file was removed asks it, to find tasks of runs whose rows nobody could carry.
   */
  default Set<String> runFolders(String ledger) {
    return Set.of();
  }
}

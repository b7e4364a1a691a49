package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.resources.HostLedger;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.resources.Refusal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides what to start. A pure function of the run state, a resource snapshot and {@code now}:
 * it reads no clock, starts no thread and does no I/O, and ties always break by priority then
 * submission order. The runtime calls it after every event and carries out what it returns.
 *
 * <p>One pass: release the queued tasks of the active group (groups run one after another), fail
 * ready tasks that no host state could ever admit, then admit ready tasks in start order against a
 * {@link HostLedger}, reserving as it goes. A task that does not fit does not stop the scan: smaller
 * tasks behind it may still fit (no head-of-line blocking). Not thread-safe; call from one thread.
 */
public final class Scheduler {

  private final SchedulerConfig config;

  /** A scheduler applying this configuration. */
  public Scheduler(SchedulerConfig config) {
    this.config = config;
  }

  /** Runs one decision pass. Does not change {@code state}. */
  public Decisions decide(RunState state, HostSnapshot snapshot, Instant now) {
    List<Decision> actions = new ArrayList<>();
    List<TaskRecord> candidates = new ArrayList<>();
    int active = state.activeGroup();
    for (TaskRecord r : state.tasks()) {
      if (r.groupIndex() == active && r.state() == TaskState.QUEUED) {
        actions.add(new Decision.Release(r.spec().id()));
        candidates.add(r);
      }
      if (r.groupIndex() > active) {
        break;
      }
    }
    List<TaskRecord> ordered = new ArrayList<>(state.ready());
    if (!candidates.isEmpty()) {
      ordered.addAll(candidates);
      ordered.sort(RunState.START_ORDER);
    }

    HostLedger ledger = HostLedger.of(config, snapshot, state.running());
    List<Waiting> waiting = new ArrayList<>();
    Optional<Refusal> blockedBy = Optional.empty();
    int blockedCount = 0;
    for (TaskRecord r : ordered) {
      Optional<Refusal> never = ledger.impossible(r.spec().resources());
      if (never.isPresent()) {
        actions.add(new Decision.Fail(r.spec().id(), "can never be placed: " + never.get().describe()));
        continue;
      }
      if (blockedBy.isPresent()) {
        blockedCount++;
        continue;
      }
      Optional<Refusal> global = ledger.globalRefusal();
      if (global.isPresent()) {
        blockedBy = global;
        blockedCount++;
        continue;
      }
      HostLedger.Admission admission = ledger.tryReserve(r.spec().resources());
      if (admission.placement().isPresent()) {
        int attempt = r.history().attemptCount() + 1;
        actions.add(new Decision.Start(r.spec().id(), attempt, admission.placement().get()));
      } else {
        waiting.add(new Waiting(r.spec().id(), admission.refusals()));
      }
    }
    return new Decisions(actions, waiting, blockedBy, blockedCount);
  }

  /** The configuration this scheduler applies. */
  public SchedulerConfig config() {
    return config;
  }
}

package dev.berth.core.scheduling;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.Refusal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** What one decision pass of the {@link Scheduler} has decided so far. */
final class Pass {
  final Instant now;
  final List<Decision> actions = new ArrayList<>();
  final List<Waiting> waiting = new ArrayList<>();
  Optional<Refusal> blockedBy = Optional.empty();
  int blockedCount;
  Optional<Instant> wakeAt = Optional.empty();
  /** On a cluster: queued tasks whose dependencies are pending. */
  final List<TaskRecord> held = new ArrayList<>();
  /** Tasks the host ledger refused moments ago, which this pass neither places nor gives a reason. */
  final Set<TaskId> heldBack;

  Pass(Instant now, Set<TaskId> heldBack) {
    this.now = now;
    this.heldBack = heldBack;
  }

  void wakeAt(Instant t) {
    if (wakeAt.isEmpty() || t.isBefore(wakeAt.get())) {
      wakeAt = Optional.of(t);
    }
  }

  /** Whether {@code deadline} has come; if not, the next pass is due by then. */
  boolean due(Instant deadline) {
    if (now.isBefore(deadline)) {
      wakeAt(deadline);
      return false;
    }
    return true;
  }

  Decisions decisions() {
    return new Decisions(actions, waiting, blockedBy, blockedCount, wakeAt);
  }
}

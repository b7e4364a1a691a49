package dev.berth.runtime.engine;

import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.Waiting;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** A pass as it was carried out: starts the host ledger deferred become waiting tasks with its reason. */
final class HostDeferrals {

  private HostDeferrals() {}

  static Decisions apply(Decisions decided, List<Waiting> deferred) {
    if (deferred.isEmpty()) {
      return decided;
    }
    Set<TaskId> ids = new TreeSet<>();
    deferred.forEach(w -> ids.add(w.task()));
    List<Decision> actions = decided.actions().stream()
        .filter(d -> !(d instanceof Decision.Start || d instanceof Decision.Train) || !ids.contains(d.task()))
        .toList();
    List<Waiting> waiting = new ArrayList<>(decided.waiting());
    waiting.addAll(deferred);
    return new Decisions(actions, waiting, decided.blockedBy(), decided.blockedCount(), decided.wakeAt());
  }
}

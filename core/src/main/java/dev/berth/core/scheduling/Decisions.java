package dev.berth.core.scheduling;

import dev.berth.core.resources.Refusal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The result of one decision pass.
 *
 * @param actions what to do, in order
 * @param waiting ready tasks that were looked at and refused, with their reasons
 * @param blockedBy a refusal that stopped the pass for every remaining ready task, if any
 * @param blockedCount how many ready tasks {@code blockedBy} held back
 * @param wakeAt the earliest time a new pass would decide something even if nothing else happens
 *     (a retry delay ends, a timeout falls due); empty when only an event can change anything
 */
public record Decisions(
    List<Decision> actions, List<Waiting> waiting, Optional<Refusal> blockedBy, int blockedCount,
    Optional<Instant> wakeAt) {

  /** Copies the lists. */
  public Decisions {
    actions = List.copyOf(actions);
    waiting = List.copyOf(waiting);
  }

  /** A pass with no timer to set. */
  public Decisions(List<Decision> actions, List<Waiting> waiting, Optional<Refusal> blockedBy, int blockedCount) {
    this(actions, waiting, blockedBy, blockedCount, Optional.empty());
  }

  /** The start decisions only. */
  public List<Decision.Start> starts() {
    return actions.stream().filter(Decision.Start.class::isInstance).map(Decision.Start.class::cast).toList();
  }
}

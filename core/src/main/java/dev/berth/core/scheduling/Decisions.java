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

  /**
   * What holds this pass's ready tasks back on this machine: the refusal that stopped the pass, else
   * the first refusal of the first task refused for resources. Edges and group turns are not
   * resources: a task waiting only for them is not held back.
   */
  public Optional<Refusal> holdingBack() {
    return blockedBy.or(() -> waiting.stream().filter(w -> w.forResources() && !w.refusals().isEmpty()).findFirst()
        .map(w -> w.refusals().get(0)));
  }

  /**
   * {@link #holdingBack} for people, as every surface that says why a run waits prints it: {@code
   * waiting for cpu-utilization on host: ...} when the pass stopped there, else {@code 3 waiting for
   * memory on host: ...} with the count of tasks refused for resources.
   */
  public Optional<String> describeHoldingBack() {
    if (blockedBy.isPresent()) {
      return Optional.of("waiting for " + blockedBy.get().describe());
    }
    long refused = waiting.stream().filter(Waiting::forResources).count();
    return holdingBack().map(r -> refused + " waiting for " + r.describe());
  }

  /** The start decisions only. */
  public List<Decision.Start> starts() {
    return actions.stream().filter(Decision.Start.class::isInstance).map(Decision.Start.class::cast).toList();
  }
}

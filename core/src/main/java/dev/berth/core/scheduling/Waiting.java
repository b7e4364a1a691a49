package dev.berth.core.scheduling;

import dev.berth.core.model.Dependency;
import dev.berth.core.model.TaskId;
import dev.berth.core.resources.Refusal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A task that was not started in a pass, and why: it waits for an edge that is not met yet, for its
 * group's turn, or (a ready task) for resources, with every refusal.
 *
 * @param task the task
 * @param refusals every resource it was refused, most important first; empty when it waits for an
 *     edge or its group's turn
 * @param edge the {@code after} or {@code follow} edge it waits for, if that is why
 * @param activeGroup while its group's turn has not come, the group that runs now
 */
public record Waiting(TaskId task, List<Refusal> refusals, Optional<Dependency> edge, Optional<String> activeGroup) {

  /** Copies the list. */
  public Waiting {
    Objects.requireNonNull(task, "task");
    refusals = List.copyOf(refusals);
    Objects.requireNonNull(edge, "edge");
    Objects.requireNonNull(activeGroup, "activeGroup");
  }

  /** A ready task refused for resources. */
  public Waiting(TaskId task, List<Refusal> refusals) {
    this(task, refusals, Optional.empty(), Optional.empty());
  }

  /** A queued task whose {@code edge} is not met yet. */
  public static Waiting forEdge(TaskId task, Dependency edge) {
    return new Waiting(task, List.of(), Optional.of(edge), Optional.empty());
  }

  /** A queued task whose group comes after {@code activeGroup}, the group that runs now. */
  public static Waiting forTurn(TaskId task, String activeGroup) {
    return new Waiting(task, List.of(), Optional.empty(), Optional.of(activeGroup));
  }

  /** Whether it waits for resources (rather than an edge or its group's turn). */
  public boolean forResources() {
    return edge.isEmpty() && activeGroup.isEmpty();
  }

  /**
   * What it waits for, to follow "waiting for ", e.g. {@code dependencies (make succeeded)},
   * {@code its group's turn (group prepare runs first)} or
   * {@code cpus on host: asked 2, free 1 (3 reserved by Berth) [scheduler.cores]}.
   */
  public String describe() {
    if (edge.isPresent()) {
      return "dependencies (" + edge.get().describe() + ")";
    }
    if (activeGroup.isPresent()) {
      return "its group's turn (group " + activeGroup.get() + " runs first)";
    }
    return refusals.stream().map(Refusal::describe).collect(Collectors.joining("; "));
  }
}

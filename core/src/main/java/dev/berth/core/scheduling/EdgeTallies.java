package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.scheduling.DependencyCheck.Ending;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.EdgeTasks;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * How many tasks of each list that edges name have succeeded, failed, or ended otherwise, kept in
 * step with the run's events, so that where an edge stands is known without walking its tasks.
 * Edges that share a list ({@link EdgeTasks#whole()}: a glob's matches) share one tally: 4,000 tasks
 * each after the same 4,000 cost 4,000 counts and one update per ending, not 16 million looks per
 * pass. Part of {@link RunState}; pure and not thread-safe like it.
 */
final class EdgeTallies {

  /** Counts over one list; a task named twice counts twice, as {@link DependencyCheck#evaluate} does. */
  private static final class Tally {
    int succeeded;
    int failed;
    int otherwise;
  }

  /** Looked up, never walked, so their order never shows. */
  private final Map<EdgeTasks, Tally> byList = new IdentityHashMap<>();
  private final Map<TaskId, List<Tally>> containing = new HashMap<>();

  /** Starts counting for the lists {@code task}'s edges name, from the current states of their tasks. */
  void track(TaskSpec task, Function<TaskId, TaskState> stateOf) {
    for (Optional<Dependency> edge : List.of(task.after(), task.follow())) {
      if (edge.isEmpty() || byList.containsKey(edge.get().members().whole())) {
        continue;
      }
      Tally tally = new Tally();
      EdgeTasks whole = edge.get().members().whole();
      byList.put(whole, tally);
      for (TaskId member : whole) {
        count(tally, stateOf.apply(member), 1);
        containing.computeIfAbsent(member, k -> new ArrayList<>(1)).add(tally);
      }
    }
  }

  /** Moves {@code task} from {@code before} to {@code after} in the tallies of the lists that name it. */
  void moved(TaskId task, TaskState before, TaskState after) {
    if (Ending.of(before) == Ending.of(after)) {
      return;
    }
    for (Tally tally : containing.getOrDefault(task, List.of())) {
      count(tally, before, -1);
      count(tally, after, 1);
    }
  }

  /** Where {@code edge} stands; empty for an edge {@link #track} was not given. */
  Optional<DependencyCheck.Status> status(Dependency edge, Function<TaskId, TaskState> stateOf) {
    EdgeTasks members = edge.members();
    Tally tally = byList.get(members.whole());
    if (tally == null) {
      return Optional.empty();
    }
    int succeeded = tally.succeeded;
    int failed = tally.failed;
    int otherwise = tally.otherwise;
    Optional<TaskId> out = members.leftOut();
    if (out.isPresent()) {
      switch (Ending.of(stateOf.apply(out.get()))) {
        case SUCCEEDED -> succeeded--;
        case FAILED -> failed--;
        case OTHERWISE -> otherwise--;
        default -> { }
      }
    }
    int satisfied = (edge.success() ? succeeded : 0) + (edge.failure() ? failed : 0);
    return Optional.of(DependencyCheck.status(edge, satisfied, succeeded + failed + otherwise - satisfied));
  }

  private static void count(Tally tally, TaskState s, int by) {
    switch (Ending.of(s)) {
      case SUCCEEDED -> tally.succeeded += by;
      case FAILED -> tally.failed += by;
      case OTHERWISE -> tally.otherwise += by;
      default -> { }
    }
  }
}

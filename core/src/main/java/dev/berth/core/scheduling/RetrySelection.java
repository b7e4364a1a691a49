package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskPattern;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which tasks of a run a retry reopens ({@code berth retry WORKDIR [TASK|GLOB|group:NAME ...]
 * [--failed] [--cancelled]}): the tasks the selectors name (every task when there is none) that
 * ended without success, narrowed to the failed ones ({@code FAILED}, {@code TIMED_OUT}) and/or the
 * cancelled ones when asked; then, so that they can run again, every task that became
 * {@code UNREACHABLE} through them. Successes are never reopened. Pure.
 *
 * @param selectors task ids, globs such as {@code train-*}, or {@code group:NAME}; empty for every task
 * @param failed whether to take the failed and timed-out tasks (with {@code cancelled}: only those kinds)
 * @param cancelled whether to take the cancelled tasks
 */
public record RetrySelection(List<String> selectors, boolean failed, boolean cancelled) {

  private static final Set<TaskState> ENDED_UNSUCCESSFULLY =
      EnumSet.of(TaskState.FAILED, TaskState.TIMED_OUT, TaskState.CANCELLED, TaskState.UNREACHABLE);

  /** Copies the selectors. */
  public RetrySelection {
    selectors = List.copyOf(Objects.requireNonNull(selectors, "selectors"));
  }

  /** Every task that did not succeed. */
  public static RetrySelection everything() {
    return new RetrySelection(List.of(), false, false);
  }

  /**
   * The tasks to reopen, in submission order: the chosen ones, then their unreachable dependants.
   * Tasks that have not ended (pending, or interrupted) are not listed: they run anyway when the
   * run goes on.
   *
   * @throws IllegalArgumentException naming the selector when one matches no task of the run
   */
  public List<TaskId> tasksIn(RunState state) {
    Optional<String> unknown =
        TaskPattern.matchingNone(selectors, state.tasks().stream().map(TaskRecord::spec).toList());
    if (unknown.isPresent()) {
      throw new IllegalArgumentException("no task of run " + state.spec().name() + " matches " + unknown.get());
    }
    Set<TaskId> chosen = new LinkedHashSet<>();
    for (TaskRecord r : state.tasks()) {
      boolean named = selectors.isEmpty() || selectors.stream().anyMatch(s -> TaskPattern.selects(s, r.spec()));
      if (named && wanted(r.state())) {
        chosen.add(r.spec().id());
      }
    }
    TreeMap<TaskId, List<TaskId>> dependants = dependants(state);
    List<TaskId> work = new ArrayList<>(chosen);
    while (!work.isEmpty()) {
      TaskId parent = work.remove(work.size() - 1);
      for (TaskId child : dependants.getOrDefault(parent, List.of())) {
        if (state.task(child).state() == TaskState.UNREACHABLE && chosen.add(child)) {
          work.add(child);
        }
      }
    }
    List<TaskId> ordered = new ArrayList<>();
    for (TaskRecord r : state.tasks()) {
      if (chosen.contains(r.spec().id())) {
        ordered.add(r.spec().id());
      }
    }
    return ordered;
  }

  /** Why nothing was chosen, for people: {@code "no task matching train-* failed"}. */
  public String describeNone() {
    String kind = failed && cancelled ? "failed or was cancelled" : failed ? "failed"
        : cancelled ? "was cancelled" : "ended without success";
    return "no task" + (selectors.isEmpty() ? "" : " matching " + String.join(", ", selectors)) + " " + kind;
  }

  private boolean wanted(TaskState s) {
    if (!ENDED_UNSUCCESSFULLY.contains(s)) {
      return false;
    }
    if (!failed && !cancelled) {
      return true;
    }
    return (failed && (s == TaskState.FAILED || s == TaskState.TIMED_OUT)) || (cancelled && s == TaskState.CANCELLED);
  }

  private static TreeMap<TaskId, List<TaskId>> dependants(RunState state) {
    TreeMap<TaskId, List<TaskId>> children = new TreeMap<>();
    for (TaskRecord r : state.tasks()) {
      Set<TaskId> parents = new TreeSet<>();
      for (Optional<Dependency> d : List.of(r.spec().after(), r.spec().follow())) {
        d.ifPresent(dep -> parents.addAll(dep.tasks()));
      }
      for (TaskId p : parents) {
        children.computeIfAbsent(p, k -> new ArrayList<>()).add(r.spec().id());
      }
    }
    return children;
  }
}

package dev.berth.core.lifecycle;

import static dev.berth.core.lifecycle.TaskState.AVAILABLE;
import static dev.berth.core.lifecycle.TaskState.CANCELLED;
import static dev.berth.core.lifecycle.TaskState.FAILED;
import static dev.berth.core.lifecycle.TaskState.INTERRUPTED;
import static dev.berth.core.lifecycle.TaskState.SUCCEEDED;
import static dev.berth.core.lifecycle.TaskState.TRAINED;
import static dev.berth.core.lifecycle.TaskState.READY;
import static dev.berth.core.lifecycle.TaskState.OUT_OF_MEMORY;
import static dev.berth.core.lifecycle.TaskState.LOADING;
import static dev.berth.core.lifecycle.TaskState.QUEUED;
import static dev.berth.core.lifecycle.TaskState.RUNNING;
import static dev.berth.core.lifecycle.TaskState.TIMED_OUT;
import static dev.berth.core.lifecycle.TaskState.TRAINING;
import static dev.berth.core.lifecycle.TaskState.UNREACHABLE;
import static dev.berth.core.lifecycle.TaskState.LOADED;

import dev.berth.core.model.TaskId;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** The one table of legal task state changes. Anything not in it throws. */
public final class TaskTransitions {

  private static final Map<TaskState, Set<TaskState>> LEGAL = table();

  private TaskTransitions() {}

  /** Whether {@code from -> to} is legal. */
  public static boolean isLegal(TaskState from, TaskState to) {
    return LEGAL.get(from).contains(to);
  }

  /** The states reachable in one step from {@code from}. */
  public static Set<TaskState> next(TaskState from) {
    return LEGAL.get(from);
  }

  /**
   * Checks one move.
   *
   * @throws IllegalTransitionException when it is not in the table
   */
  public static void check(TaskId task, TaskState from, TaskState to) {
    if (!isLegal(from, to)) {
      throw new IllegalTransitionException(task, from, to);
    }
  }

  private static Map<TaskState, Set<TaskState>> table() {
    Map<TaskState, Set<TaskState>> t = new EnumMap<>(TaskState.class);
    t.put(QUEUED, EnumSet.of(READY, CANCELLED, TIMED_OUT, UNREACHABLE));
    // READY -> FAILED: a request no host can satisfy, or a process that cannot be started.
    // READY -> UNREACHABLE: on a cluster, a task submitted ahead of its parents, whose job the cluster
    // dropped when a parent's attempt failed, learns that the parent has failed for good.
    t.put(READY, EnumSet.of(RUNNING, AVAILABLE, FAILED, CANCELLED, TIMED_OUT, UNREACHABLE));
    // -> INTERRUPTED: Berth was stopped while the attempt ran; the task starts again on resume.
    t.put(AVAILABLE, EnumSet.of(LOADING, OUT_OF_MEMORY, READY, FAILED, CANCELLED, TIMED_OUT, INTERRUPTED));
    t.put(LOADING, EnumSet.of(LOADED, OUT_OF_MEMORY, READY, FAILED, CANCELLED, TIMED_OUT, INTERRUPTED));
    t.put(LOADED, EnumSet.of(TRAINING, READY, FAILED, CANCELLED, TIMED_OUT, INTERRUPTED));
    t.put(TRAINING, EnumSet.of(TRAINED, OUT_OF_MEMORY, READY, FAILED, CANCELLED, TIMED_OUT, INTERRUPTED));
    // RUNNING -> READY: the attempt failed and the task will be retried with a fresh process.
    t.put(RUNNING, EnumSet.of(SUCCEEDED, OUT_OF_MEMORY, READY, FAILED, CANCELLED, TIMED_OUT, INTERRUPTED));
    t.put(TRAINED, EnumSet.of(SUCCEEDED, FAILED, CANCELLED, TIMED_OUT));
    // OUT_OF_MEMORY -> LOADED keeps a loaded process after a GPU OOM; -> READY starts a new one.
    t.put(OUT_OF_MEMORY, EnumSet.of(READY, LOADED, FAILED, CANCELLED, TIMED_OUT, INTERRUPTED));
    // INTERRUPTED -> READY: the run resumed; -> CANCELLED: it was cancelled before it resumed.
    t.put(INTERRUPTED, EnumSet.of(READY, CANCELLED));
    // A retry reopens an ending other than success: the task waits for its turn and dependencies again.
    for (TaskState ended : EnumSet.of(FAILED, CANCELLED, TIMED_OUT, UNREACHABLE)) {
      t.put(ended, EnumSet.of(QUEUED));
    }
    for (TaskState s : TaskState.values()) {
      t.putIfAbsent(s, EnumSet.noneOf(TaskState.class));
      t.put(s, Collections.unmodifiableSet(t.get(s)));
    }
    return Collections.unmodifiableMap(t);
  }
}

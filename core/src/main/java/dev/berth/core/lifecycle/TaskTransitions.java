package dev.berth.core.lifecycle;

import static dev.berth.core.lifecycle.TaskState.AVAILABLE;
import static dev.berth.core.lifecycle.TaskState.CANCELLED;
import static dev.berth.core.lifecycle.TaskState.EXCEPTION;
import static dev.berth.core.lifecycle.TaskState.EXITED;
import static dev.berth.core.lifecycle.TaskState.FINISHED;
import static dev.berth.core.lifecycle.TaskState.INIT;
import static dev.berth.core.lifecycle.TaskState.INTERRUPT;
import static dev.berth.core.lifecycle.TaskState.LOADING;
import static dev.berth.core.lifecycle.TaskState.QUEUED;
import static dev.berth.core.lifecycle.TaskState.RUNNING;
import static dev.berth.core.lifecycle.TaskState.TIMED_OUT;
import static dev.berth.core.lifecycle.TaskState.TRAINING;
import static dev.berth.core.lifecycle.TaskState.UNREACHABLE;
import static dev.berth.core.lifecycle.TaskState.WAITING;

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
    t.put(QUEUED, EnumSet.of(INIT, CANCELLED, TIMED_OUT, UNREACHABLE));
    // INIT -> EXCEPTION: a request no host can satisfy, or a process that cannot be started.
    // INIT -> UNREACHABLE: on a cluster, a task submitted ahead of its parents, whose job the cluster
    // dropped when a parent's attempt failed, learns that the parent has failed for good.
    t.put(INIT, EnumSet.of(RUNNING, AVAILABLE, EXCEPTION, CANCELLED, TIMED_OUT, UNREACHABLE));
    t.put(AVAILABLE, EnumSet.of(LOADING, INTERRUPT, INIT, EXCEPTION, CANCELLED, TIMED_OUT));
    t.put(LOADING, EnumSet.of(WAITING, INTERRUPT, INIT, EXCEPTION, CANCELLED, TIMED_OUT));
    t.put(WAITING, EnumSet.of(TRAINING, INIT, EXCEPTION, CANCELLED, TIMED_OUT));
    t.put(TRAINING, EnumSet.of(FINISHED, INTERRUPT, INIT, EXCEPTION, CANCELLED, TIMED_OUT));
    // RUNNING -> INIT: the attempt failed and the task will be retried with a fresh process.
    t.put(RUNNING, EnumSet.of(EXITED, INTERRUPT, INIT, EXCEPTION, CANCELLED, TIMED_OUT));
    t.put(FINISHED, EnumSet.of(EXITED, EXCEPTION, CANCELLED, TIMED_OUT));
    // INTERRUPT -> WAITING keeps a loaded process after a GPU OOM; -> INIT starts a new one.
    t.put(INTERRUPT, EnumSet.of(INIT, WAITING, EXCEPTION, CANCELLED, TIMED_OUT));
    for (TaskState s : TaskState.values()) {
      t.putIfAbsent(s, EnumSet.noneOf(TaskState.class));
      t.put(s, Collections.unmodifiableSet(t.get(s)));
    }
    return Collections.unmodifiableMap(t);
  }
}

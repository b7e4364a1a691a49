package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.Decision;
import dev.berth.spi.Execution;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The executions of the attempts under way, by task, with the kills and exit requests sent to
 * them, and the attempts whose processes are being started on a launch thread: a kill of such an
 * attempt is remembered and carried out as soon as its execution arrives. Loop thread only.
 */
final class LiveExecutions {

  /** How long a process gets to exit after it was asked to, before it is killed. */
  static final long TERMINATE_GRACE_MILLIS = 5_000;

  private final Map<TaskId, Execution> executions = new TreeMap<>();
  private final Map<TaskId, Decision.Kill> killing = new TreeMap<>();
  private final Set<TaskId> exiting = new TreeSet<>();
  private final Set<TaskId> launching = new TreeSet<>();
  private Consumer<Decision.Kill> marker = kill -> { };

  /** Has every kill marked by {@code marker} before its signal goes out. */
  void markKillsWith(Consumer<Decision.Kill> marker) {
    this.marker = marker;
  }

  /** The task's execution; when Berth decided to end the attempt while it was starting, it is terminated now. */
  void put(TaskId id, Execution execution) {
    launching.remove(id);
    executions.put(id, execution);
    if (killing.containsKey(id)) {
      execution.terminate(TERMINATE_GRACE_MILLIS);
    }
  }

  /** The task's process is being started on a launch thread: it counts as live until {@link #put} or {@link #launchFailed}. */
  void launching(TaskId id) {
    launching.add(id);
  }

  /** The task's process could not be started: it is no longer live. */
  void launchFailed(TaskId id) {
    launching.remove(id);
  }

  /** The task's execution, or null when it has none. */
  Execution get(TaskId id) {
    return executions.get(id);
  }

  /** Forgets the task's execution; returns it, or null when it had none. */
  Execution remove(TaskId id) {
    return executions.remove(id);
  }

  /** Whether no attempt has an execution or is starting one. */
  boolean isEmpty() {
    return executions.isEmpty() && launching.isEmpty();
  }

  /** The tasks with an execution or starting one, in id order. */
  List<TaskId> tasks() {
    Set<TaskId> all = new TreeSet<>(executions.keySet());
    all.addAll(launching);
    return new ArrayList<>(all);
  }

  /** The process id of each execution that has one. */
  SortedMap<TaskId, Long> pids() {
    SortedMap<TaskId, Long> pids = new TreeMap<>();
    executions.forEach((id, execution) -> {
      if (execution.pid() > 0) {
        pids.put(id, execution.pid());
      }
    });
    return pids;
  }

  /**
   * Terminates the task's process, remembering why so that its exit is ended as this kill; a task
   * still starting is terminated when its execution arrives; a task without either is left alone.
   */
  void kill(Decision.Kill kill) {
    Execution e = executions.get(kill.task());
    if (e == null && !launching.contains(kill.task())) {
      return;
    }
    boolean first = explain(kill);
    if (killing.get(kill.task()) == kill) {
      marker.accept(kill);
    }
    if (first && e != null) {
      e.terminate(TERMINATE_GRACE_MILLIS);
    }
  }

  /**
   * Remembers why Berth ends the task's attempt, so that its exit, whenever it comes, is ended for
   * this reason; returns whether it is the first reason. A cancel wins over an earlier reason: the
   * attempt ends cancelled, without a retry.
   */
  boolean explain(Decision.Kill why) {
    Decision.Kill earlier = killing.putIfAbsent(why.task(), why);
    if (earlier != null && why.outcome() == Outcome.CANCELLED && earlier.outcome() != Outcome.CANCELLED) {
      killing.put(why.task(), why);
    }
    return earlier == null;
  }

  /** Whether Berth is already ending the task's attempt: killing it, or having asked it to exit. */
  boolean isEnding(TaskId id) {
    return killing.containsKey(id) || exiting.contains(id);
  }

  /** The kill the task's process was ended by, if any; forgets it. */
  Optional<Decision.Kill> takeKill(TaskId id) {
    return Optional.ofNullable(killing.remove(id));
  }

  /** Marks the task as asked to exit; false when it already was. */
  boolean markExiting(TaskId id) {
    return exiting.add(id);
  }

  void clearExiting(TaskId id) {
    exiting.remove(id);
  }
}

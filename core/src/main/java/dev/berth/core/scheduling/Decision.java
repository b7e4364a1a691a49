package dev.berth.core.scheduling;

import dev.berth.core.model.Dependency;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import java.util.Optional;

/** One thing the runtime must do, decided by the {@link Scheduler}. */
public sealed interface Decision
    permits Decision.Release, Decision.Start, Decision.Fail, Decision.Settle, Decision.Kill, Decision.Train,
        Decision.Resume, Decision.Exit {

  /** The task the decision is about. */
  TaskId task();

  /** Mark the task ready: its group's turn has come and its dependencies are met. */
  record Release(TaskId task) implements Decision {}

  /**
   * Start attempt {@code attempt} of the task with this placement. On a cluster, {@code upstream}
   * names the parents still running whose ending the cluster should wait for before the attempt
   * begins (the rest of the task's dependencies are already met). {@code learned} says which
   * reservations were learned from the task's template rather than declared.
   */
  record Start(TaskId task, int attempt, Placement placement, Optional<Dependency> upstream,
      java.util.List<dev.berth.core.lifecycle.Learned> learned) implements Decision {

    /** Validates. */
    public Start {
      java.util.Objects.requireNonNull(placement, "placement");
      java.util.Objects.requireNonNull(upstream, "upstream");
      learned = java.util.List.copyOf(learned);
    }

    /** A start of declared reservations. */
    public Start(TaskId task, int attempt, Placement placement, Optional<Dependency> upstream) {
      this(task, attempt, placement, upstream, java.util.List.of());
    }

    /** A start whose dependencies are all met. */
    public Start(TaskId task, int attempt, Placement placement) {
      this(task, attempt, placement, Optional.empty());
    }
  }

  /** Fail the task at once: it can never be placed. */
  record Fail(TaskId task, String reason) implements Decision {}

  /**
   * End a task that has no process in a terminal state: unreachable, cancelled because something
   * it needed was cancelled, or timed out while queued.
   */
  record Settle(TaskId task, TaskState state, String reason) implements Decision {
    /** Validates that the state is terminal. */
    public Settle {
      if (!state.isTerminal()) {
        throw new IllegalArgumentException("Settle needs a terminal state but got " + state);
      }
    }

    /** Ends a task whose edge can never be met: cancelled when a task it needs was, else unreachable. */
    static Settle unmet(TaskId task, DependencyCheck.Evaluation edge) {
      return new Settle(task, edge.cancelledBy().isPresent() ? TaskState.CANCELLED : TaskState.UNREACHABLE,
          edge.reason());
    }
  }

  /**
   * Kill the task's running process tree; when it exits, the attempt ends with {@code outcome}.
   * Repeated in every pass until the exit is seen; the runtime acts on the first.
   */
  record Kill(TaskId task, Outcome outcome, String reason) implements Decision {}

  /** Tell a loaded two-stage task to train on this device ({@code train}: its 1-based train call). */
  record Train(TaskId task, int train, Placement placement) implements Decision {}

  /** A two-stage task that ran out of GPU memory keeps its process and waits for a device again. */
  record Resume(TaskId task) implements Decision {}

  /**
   * Tell a two-stage task's process to exit: it finished, failed, or used up its budget. Repeated in
   * every pass until the exit is seen; the runtime acts on the first.
   */
  record Exit(TaskId task, String reason) implements Decision {}
}

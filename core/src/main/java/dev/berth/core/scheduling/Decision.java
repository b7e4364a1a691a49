package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.TaskId;

/** One thing the runtime must do, decided by the {@link Scheduler}. */
public sealed interface Decision permits Decision.Release, Decision.Start, Decision.Fail {

  /** The task the decision is about. */
  TaskId task();

  /** Mark the task ready: its group's turn has come. */
  record Release(TaskId task) implements Decision {}

  /** Start attempt {@code attempt} of the task with this placement. */
  record Start(TaskId task, int attempt, Placement placement) implements Decision {}

  /** Fail the task at once: it can never be placed. */
  record Fail(TaskId task, String reason) implements Decision {}
}

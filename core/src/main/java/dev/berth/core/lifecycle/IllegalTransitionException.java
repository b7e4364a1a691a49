package dev.berth.core.lifecycle;

import dev.berth.core.model.TaskId;

/** Thrown when a task is asked to make a state change that the transition table forbids. */
public final class IllegalTransitionException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final TaskId task;
  private final TaskState from;
  private final TaskState to;

  /** Creates the exception for {@code task} moving {@code from -> to}. */
  public IllegalTransitionException(TaskId task, TaskState from, TaskState to) {
    super("task " + task + " cannot move from " + from + " to " + to
        + "; legal next states: " + TaskTransitions.next(from));
    this.task = task;
    this.from = from;
    this.to = to;
  }

  /** The task. */
  public TaskId task() {
    return task;
  }

  /** The state it was in. */
  public TaskState from() {
    return from;
  }

  /** The state it was asked to move to. */
  public TaskState to() {
    return to;
  }
}

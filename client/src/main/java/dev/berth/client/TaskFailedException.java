package dev.berth.client;

/** A task did not succeed; thrown where a successful task's result was asked for. */
public final class TaskFailedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient TaskResult result;

  /** The exception for a task that ended as {@code result} says. */
  public TaskFailedException(TaskResult result) {
    super("task " + result.id() + " ended " + result.status() + result.error().map(e -> ": " + e).orElse(""));
    this.result = result;
  }

  /** How the task ended. */
  public TaskResult result() {
    return result;
  }
}

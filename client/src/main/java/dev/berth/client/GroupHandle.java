package dev.berth.client;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A submitted group: a handle per task, and the group's end once every task ended. Thread-safe. */
public final class GroupHandle {

  private final String name;
  private final List<TaskHandle> tasks;
  private final CompletableFuture<GroupResult> done;

  GroupHandle(String name, List<TaskHandle> tasks) {
    this.name = name;
    this.tasks = List.copyOf(tasks);
    CompletableFuture<?>[] all = tasks.stream().map(t -> t.done).toArray(CompletableFuture[]::new);
    this.done = CompletableFuture.allOf(all)
        .thenApply(x -> new GroupResult(name, this.tasks.stream().map(t -> t.done.join()).toList()));
  }

  /** The group's name. */
  public String name() {
    return name;
  }

  /** The handles of its tasks, in order. */
  public List<TaskHandle> tasks() {
    return tasks;
  }

  /** Whether every task ended. */
  public boolean isDone() {
    return done.isDone();
  }

  /** Waits up to {@code timeout}; true when every task ended in time. */
  public boolean await(Duration timeout) throws InterruptedException {
    try {
      done.get(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return true;
    }
  }

  /**
   * Waits until every task ended.
   *
   * @throws IllegalStateException when the session's engine stopped first
   */
  public GroupResult get() throws InterruptedException {
    try {
      return done.get();
    } catch (ExecutionException e) {
      throw Berth.unwrap(e);
    }
  }

  /**
   * Waits up to {@code timeout} until every task ended.
   *
   * @throws TimeoutException when some task has not ended in time
   */
  public GroupResult get(Duration timeout) throws InterruptedException, TimeoutException {
    try {
      return done.get(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw Berth.unwrap(e);
    }
  }

  /** Cancels every task of the group that has not ended. */
  public void cancel() {
    tasks.forEach(TaskHandle::cancel);
  }

  /** A future of the group's end (a copy: completing it does not affect the group). */
  public CompletableFuture<GroupResult> toCompletableFuture() {
    return done.copy();
  }
}

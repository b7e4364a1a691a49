package dev.berth.client;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
    return Waits.await(done, timeout);
  }

  /**
   * Waits until every task ended.
   *
   * @throws IllegalStateException when the session's engine stopped first
   */
  public GroupResult get() throws InterruptedException {
    return Waits.get(done);
  }

  /**
   * Waits up to {@code timeout} until every task ended.
   *
   * @throws TimeoutException when some task has not ended in time
   */
  public GroupResult get(Duration timeout) throws InterruptedException, TimeoutException {
    return Waits.get(done, timeout);
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

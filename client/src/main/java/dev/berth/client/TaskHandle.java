package dev.berth.client;

import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.TaskStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * A submitted task, as ipyparallel's {@code AsyncResult}: its live state, and its end once it comes.
 *
 * <p>Waiting: {@link #await(Duration)} returns whether the task ended within the time (ipyparallel's
 * {@code wait(timeout)} then {@code ready()}) and never throws for a task that failed;
 * {@link #get(Duration)} returns the {@link TaskResult} or throws {@link TimeoutException}
 * (ipyparallel's {@code get(timeout)}); {@link #result()} waits and returns the result map of a
 * task that succeeded or throws {@link TaskFailedException}. The handle is fed by the session's
 * engine listener; futures complete on the session's {@code berth-callbacks} threads, never on the
 * engine's, so callbacks may block (briefly) without stalling the scheduler. When the session is
 * closed before the task ended, the handle completes as the task stands: {@code INTERRUPTED} (its
 * attempt was stopped) or {@code PENDING}; the next session on the folder resumes it. Thread-safe.
 */
public final class TaskHandle {

  private final String id;
  private final String group;
  private final Path workdir;
  private final Berth session;
  private volatile TaskState state = TaskState.QUEUED;
  private volatile List<AttemptReport> attempts = List.of();
  final CompletableFuture<TaskResult> done = new CompletableFuture<>();

  TaskHandle(String id, String group, Path workdir, Berth session) {
    this.id = id;
    this.group = group;
    this.workdir = workdir;
    this.session = session;
  }

  /** The task's id. */
  public String id() {
    return id;
  }

  /** The task's group. */
  public String group() {
    return group;
  }

  /** The task's folder, {@code <workdir>/<group>/<id>}. */
  public Path workdir() {
    return workdir;
  }

  /** Where the task is now: {@code QUEUED}, {@code READY}, {@code RUNNING}, ..., {@code SUCCEEDED}, {@code FAILED}. */
  public TaskState state() {
    return state;
  }

  /** The status as {@code berth status} and the reports name it: {@code PENDING}, {@code RUNNING}, then how it ended. */
  public TaskStatus status() {
    return TaskStatus.of(state);
  }

  /** Whether the task ended (and its {@link TaskResult} is ready). */
  public boolean isDone() {
    return done.isDone();
  }

  /** The attempts so far, oldest first; the last one is {@code RUNNING} while it runs. */
  public List<AttemptReport> attempts() {
    return attempts;
  }

  /**
   * Waits up to {@code timeout} for the task to end.
   *
   * @return true when it ended (in any way), false when the time ran out first
   */
  public boolean await(Duration timeout) throws InterruptedException {
    return Waits.await(done, timeout);
  }

  /**
   * Waits for the task to end and returns how it ended; a failed task is a result, not an exception.
   *
   * @throws IllegalStateException when the session's engine stopped before the task ended
   */
  public TaskResult get() throws InterruptedException {
    return Waits.get(done);
  }

  /**
   * Waits up to {@code timeout} for the task to end and returns how it ended.
   *
   * @throws TimeoutException when the task has not ended in time
   * @throws IllegalStateException when the session's engine stopped before the task ended
   */
  public TaskResult get(Duration timeout) throws InterruptedException, TimeoutException {
    return Waits.get(done, timeout);
  }

  /**
   * Waits for the task to end and returns its result map ({@link TaskResult#result()}).
   *
   * @throws TaskFailedException when the task did not succeed
   */
  public Map<String, Object> result() throws InterruptedException {
    return get().resultOrThrow();
  }

  /**
   * The items the task has published so far (fedflow's {@code get_item}); readable while it runs,
   * as the engine rewrites {@code items.json} in its folder on each item. See {@link TaskResult#items()}.
   */
  public Map<String, Object> items() {
    return ResultFiles.items(workdir);
  }

  /**
   * Cancels the task: it ends as {@code CANCELLED} if it has not started, or its process tree is
   * terminated if it runs; tasks that depend on it become unreachable. Does nothing once it ended.
   */
  public void cancel() {
    session.cancelTask(id);
  }

  /**
   * A future of the task's end, for composition ({@code thenApply}, {@code allOf}, ...): a copy, so
   * completing or cancelling it does not affect the task (use {@link #cancel()} for that). It
   * completes on a {@code berth-callbacks} thread, exceptionally only when the engine stopped.
   */
  public CompletableFuture<TaskResult> toCompletableFuture() {
    return done.copy();
  }

  void update(TaskState state, List<AttemptReport> attempts) {
    this.state = state;
    this.attempts = attempts;
  }

  @Override
  public String toString() {
    return "task " + id + " (" + state + ")";
  }
}

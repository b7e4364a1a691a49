package dev.berth.client;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskReport;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.engine.RunListener;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The session's engine listener: keeps each {@link TaskHandle}'s live state and completes its
 * future when the task ends, or when the session's run is interrupted before it did. Runs on the engine's loop thread, so it only copies what it needs and
 * hands completions to the callback threads; it never reads files or waits.
 */
final class Registry implements RunListener {

  private final Map<TaskId, TaskHandle> live = new ConcurrentHashMap<>();
  private final Executor callbacks;
  private final RunListener user;
  private final RunLayout layout;
  private RunState state;

  Registry(Executor callbacks, RunListener user, RunLayout layout) {
    this.callbacks = callbacks;
    this.user = user;
    this.layout = layout;
  }

  /** Starts tracking a task about to be submitted. */
  void track(TaskHandle handle) {
    live.put(TaskId.of(handle.id()), handle);
  }

  /**
   * Starts tracking a task resumed from the session's journal, in the state the journal left it:
   * a task that had ended gets its result at once; the others are tracked like new ones.
   */
  void restore(TaskHandle handle, TaskRecord task) {
    TaskResult result = result(task);
    handle.update(task.state(), result.report().attempts());
    if (task.state().isTerminal()) {
      deliver(() -> handle.done.complete(result));
    } else {
      track(handle);
    }
  }

  /** The engine refused these tasks' group: their handles fail with {@code why}. */
  void refused(List<TaskHandle> handles, Throwable why) {
    for (TaskHandle h : handles) {
      if (live.remove(TaskId.of(h.id())) != null) {
        deliver(() -> h.done.completeExceptionally(why));
      }
    }
  }

  /** The engine stopped: every handle still waiting fails with {@code why}. */
  void failAll(Throwable why) {
    for (TaskId id : List.copyOf(live.keySet())) {
      TaskHandle h = live.remove(id);
      if (h != null) {
        deliver(() -> h.done.completeExceptionally(why));
      }
    }
  }

  @Override
  public void runStarted(RunState state) {
    this.state = state;
    safely(() -> user.runStarted(state));
  }

  @Override
  public void taskEvent(TaskRecord task, TaskEvent event) {
    TaskId id = task.spec().id();
    boolean ended = task.state().isTerminal();
    TaskHandle h = ended ? live.remove(id) : live.get(id);
    if (h != null) {
      TaskResult result = result(task);
      h.update(task.state(), result.report().attempts());
      if (ended) {
        deliver(() -> h.done.complete(result));
      }
    }
    safely(() -> user.taskEvent(task, event));
  }

  @Override
  public void probed(HostSnapshot snapshot) {
    safely(() -> user.probed(snapshot));
  }

  @Override
  public void decided(Decisions decisions) {
    safely(() -> user.decided(decisions));
  }

  @Override
  public void runFinished(RunReport report) {
    if (report.status() == RunStatus.INTERRUPTED && state != null) {
      // The session was closed before these tasks ended: their handles complete as they stand
      // (INTERRUPTED, or PENDING when they never started); a session that resumes runs them.
      for (TaskId id : List.copyOf(live.keySet())) {
        TaskHandle h = live.remove(id);
        if (h != null) {
          TaskRecord r = state.task(id);
          TaskResult result = result(r);
          h.update(r.state(), result.report().attempts());
          deliver(() -> h.done.complete(result));
        }
      }
    }
    safely(() -> user.runFinished(report));
  }

  /** The task as report.json will show it, with stage times, and its result. */
  private TaskResult result(TaskRecord r) {
    Path dir = layout.taskDir(r.spec());
    return new TaskResult(TaskReport.of(r, dir.toString()), dir, r.spec().twoStage());
  }

  /** A failing user listener must not stop the engine: its exception goes to the thread's handler. */
  private static void safely(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      Thread t = Thread.currentThread();
      t.getUncaughtExceptionHandler().uncaughtException(t, e);
    }
  }

  private void deliver(Runnable completion) {
    try {
      callbacks.execute(completion);
    } catch (RejectedExecutionException closing) {
      completion.run();
    }
  }
}

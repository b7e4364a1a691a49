package dev.berth.session;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.report.RunReport;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.runtime.engine.RunListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the engine told a session's listener, for a test to wait on without sleeping. The engine
 * journals a launch before it starts the process, which may start on a launch thread after the
 * pass: a launch counts once its process runs (its start, with the pid, is announced) or could not
 * start.
 */
final class Seen implements RunListener {

  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final List<String> launched = new ArrayList<>();
  private final List<String> ended = new ArrayList<>();
  private RunReport finished;

  @Override
  public synchronized void taskEvent(TaskRecord task, TaskEvent event) {
    boolean startFailed = event instanceof TaskEvent.Ended e && e.outcome() == Outcome.START_FAILED;
    if (event instanceof TaskEvent.Started || startFailed) {
      launched.add(task.spec().id().value());
      notifyAll();
    }
    if (event.target().isTerminal()) {
      ended.add(task.spec().id().value()); // announced once journaled
      notifyAll();
    }
  }

  @Override
  public synchronized void runFinished(RunReport report) {
    finished = report;
    notifyAll();
  }

  /** Waits until {@code task} was launched {@code times} times in all. */
  synchronized void awaitLaunches(String task, int times) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT_NANOS;
    while (launched.stream().filter(task::equals).count() < times) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(task + " was not launched " + times + " times; launched: " + launched);
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  /** Waits until {@code task} ended (and its end is in the journal, which comes first). */
  synchronized void awaitEnded(String task) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT_NANOS;
    while (!ended.contains(task)) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(task + " did not end; ended: " + ended);
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  /** Waits until the run finished and returns its report. */
  synchronized RunReport awaitFinished() throws InterruptedException {
    long deadline = System.nanoTime() + WAIT_NANOS;
    while (finished == null) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("the run did not finish; launched: " + launched);
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return finished;
  }

  /** Every launch so far, in order. */
  synchronized List<String> launched() {
    return List.copyOf(launched);
  }
}

package dev.berth.client;

import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The results of a {@link Berth#map}, streamed as the tasks end: iterate (or {@link #stream()})
 * and each step waits for the next result, in input order or in completion order as the options
 * say. The map goes on whether or not anyone iterates; every iteration sees the same results, so a
 * second loop replays them. Iterating to a task that did not succeed throws its
 * {@link TaskFailedException} unless the map returns exceptions as values. Thread-safe.
 */
public final class MapResults implements Iterable<MapResult> {

  private final Berth session;
  private final List<?> inputs;
  private final List<TaskBuilder> tasks;
  private final MapOptions options;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final MapResult[] byIndex;
  private final List<MapResult> completed = new ArrayList<>();
  private final TaskHandle[] handles;
  private int nextToSubmit;
  private int outstanding;
  private String stopped;

  MapResults(Berth session, List<?> inputs, List<TaskBuilder> tasks, MapOptions options) {
    this.session = session;
    this.inputs = List.copyOf(inputs);
    this.tasks = List.copyOf(tasks);
    this.options = options;
    this.byIndex = new MapResult[tasks.size()];
    this.handles = new TaskHandle[tasks.size()];
  }

  /** How many inputs the map has. */
  public int size() {
    return tasks.size();
  }

  /** The options the map runs with. */
  public MapOptions options() {
    return options;
  }

  /** Whether every input has its result. */
  public boolean isDone() {
    lock.lock();
    try {
      return completed.size() == byIndex.length;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits for each result in turn; see the class comment for order and failures.
   *
   * @throws TaskFailedException from {@code next()} for a task that did not succeed, unless
   *     {@link MapOptions#returnExceptions()}
   * @throws IllegalStateException from {@code next()} when the waiting thread is interrupted (its
   *     interrupt flag is set again)
   */
  @Override
  public Iterator<MapResult> iterator() {
    return new Iterator<>() {
      private int position;

      @Override
      public boolean hasNext() {
        return position < byIndex.length;
      }

      @Override
      public MapResult next() {
        if (!hasNext()) {
          throw new NoSuchElementException("the map has " + byIndex.length + " results");
        }
        MapResult r = await(position++);
        if (!options.returnExceptions() && r.failure().isPresent()) {
          throw r.failure().get();
        }
        return r;
      }
    };
  }

  /** The results as a stream, in the order {@link #iterator()} gives them. */
  public Stream<MapResult> stream() {
    return StreamSupport.stream(
        Spliterators.spliterator(iterator(), byIndex.length, Spliterator.ORDERED | Spliterator.SIZED), false);
  }

  /** Waits for every result and returns them in iteration order; throws as iteration does. */
  public List<MapResult> toList() {
    return stream().toList();
  }

  /** Waits for every value ({@link MapResult#value()}) in iteration order; throws as iteration does. */
  public List<Object> values() {
    return stream().map(MapResult::value).toList();
  }

  /**
   * Stops the map: inputs not submitted yet end as {@code CANCELLED} without running, and the
   * tasks submitted and not ended are cancelled.
   */
  public void cancel() {
    stop("the map was cancelled");
    for (TaskHandle h : submitted()) {
      h.cancel();
    }
  }

  void start() {
    feed();
  }

  /** Inputs not submitted yet end as cancelled with {@code reason}; running ones are left to the caller. */
  void stop(String reason) {
    List<Integer> never = new ArrayList<>();
    lock.lock();
    try {
      if (stopped == null) {
        stopped = reason;
      }
      while (nextToSubmit < byIndex.length) {
        never.add(nextToSubmit++);
      }
    } finally {
      lock.unlock();
    }
    for (int i : never) {
      record(i, notRun(i, reason));
    }
  }

  private List<TaskHandle> submitted() {
    lock.lock();
    try {
      List<TaskHandle> out = new ArrayList<>();
      for (TaskHandle h : handles) {
        if (h != null) {
          out.add(h);
        }
      }
      return out;
    } finally {
      lock.unlock();
    }
  }

  /** Submits as many inputs as the back-pressure allows. */
  private void feed() {
    while (true) {
      int i;
      lock.lock();
      try {
        boolean room = options.maxOutstanding() == 0 || outstanding < options.maxOutstanding();
        if (stopped != null || nextToSubmit >= byIndex.length || !room) {
          return;
        }
        i = nextToSubmit++;
        outstanding++;
      } finally {
        lock.unlock();
      }
      TaskHandle h;
      try {
        h = session.submit(tasks.get(i));
      } catch (RuntimeException e) {
        lock.lock();
        try {
          outstanding--;
        } finally {
          lock.unlock();
        }
        record(i, new MapResult(i, inputs.get(i), notRunResult(i, e.getMessage()), e));
        continue;
      }
      lock.lock();
      try {
        handles[i] = h;
      } finally {
        lock.unlock();
      }
      h.done.whenComplete((result, error) -> ended(i, result, error));
    }
  }

  private void ended(int i, TaskResult result, Throwable error) {
    MapResult r;
    if (error != null) {
      RuntimeException e = error instanceof RuntimeException re ? re : new IllegalStateException(error.getMessage(), error);
      r = new MapResult(i, inputs.get(i), notRunResult(i, e.getMessage()), e);
    } else {
      r = new MapResult(i, inputs.get(i), result, value(result));
    }
    lock.lock();
    try {
      outstanding--;
    } finally {
      lock.unlock();
    }
    record(i, r);
    feed();
  }

  private static Object value(TaskResult result) {
    if (!result.succeeded()) {
      return new TaskFailedException(result);
    }
    try {
      return result.resultIfAny().<Object>map(m -> m).orElseGet(() -> result.stdout().replaceAll("[\\r\\n]+$", ""));
    } catch (RuntimeException e) {
      return e;
    }
  }

  private void record(int i, MapResult r) {
    lock.lock();
    try {
      if (byIndex[i] == null) {
        byIndex[i] = r;
        completed.add(r);
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private MapResult await(int position) {
    lock.lock();
    try {
      while (options.ordered() ? byIndex[position] == null : completed.size() <= position) {
        changed.await();
      }
      return options.ordered() ? byIndex[position] : completed.get(position);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a map result", e);
    } finally {
      lock.unlock();
    }
  }

  private MapResult notRun(int i, String reason) {
    TaskResult t = notRunResult(i, reason);
    return new MapResult(i, inputs.get(i), t, new TaskFailedException(t));
  }

  private TaskResult notRunResult(int i, String reason) {
    TaskBuilder t = tasks.get(i);
    String group = Berth.TASKS_GROUP;
    Path dir = session.workdir().resolve(group).resolve(t.id());
    TaskReport report = new TaskReport(t.id(), group, TaskStatus.CANCELLED, t.command(),
        dir.toString(), new java.util.TreeMap<>(t.params()), reason, List.of());
    return new TaskResult(report, dir, t.twoStage());
  }
}

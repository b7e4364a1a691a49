package dev.berth.runtime.pool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.pool.WorkerScheme;
import dev.berth.spi.LaunchException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One named pool: its engines by device, started lazily up to its size (for {@code auto}, one more
 * whenever every engine of the device is busy), chosen by its scheme, recycled after so many calls or
 * once their memory grew past the limit, and replaced when they die. An engine below its high-water
 * mark takes a call while it runs others, and begins it once those are answered. A call whose parent
 * ran in one of its engines goes to that engine when it has room. Calls no engine can take yet wait
 * in order; so do calls queued in an engine that died before beginning them, which go to another
 * engine as if never sent. Thread-safe: one lock guards the pool; exits and starts are reported
 * outside it.
 */
final class WorkerPool {

  private final PoolSpec spec;
  private final WorkerStarter starter;
  private final ScheduledExecutorService killTimer;
  private final List<WarmWorker> engines = new ArrayList<>();
  private final Deque<PoolCall> waiting = new ArrayDeque<>();
  /** Calls begun under the lock whose listeners are to hear of it once it is released. */
  private final List<PoolCall> starting = new ArrayList<>();
  /** The engine each task's call was sent to, by the task's folder (how a dependant names its parents). */
  private final Map<String, WarmWorker> ranIn = new HashMap<>();
  private final SplittableRandom random;
  private long sequence;
  private long skipGraceMillis;
  private boolean closed;

  WorkerPool(PoolSpec spec, WorkerStarter starter, ScheduledExecutorService killTimer) {
    this.spec = spec;
    this.starter = starter;
    this.killTimer = killTimer;
    this.random = new SplittableRandom(spec.name().hashCode());
  }

  /**
   * Sends the call to an engine of its device, starting one if the pool may, or queues it.
   *
   * @throws LaunchException when a needed engine cannot start (no such interpreter, say)
   */
  void submit(PoolCall call) throws LaunchException {
    synchronized (this) {
      if (!dispatch(call)) {
        waiting.add(call);
      }
    }
    call.handedOver();
  }

  /** Whether the call went to an engine. Lock held. */
  private boolean dispatch(PoolCall call) throws LaunchException {
    String device = call.call().device();
    List<WarmWorker> open = new ArrayList<>();
    int alive = 0;
    for (WarmWorker e : engines) {
      if (e.device().equals(device) && e.launcher().equals(call.call().launcher()) && !e.retiring()) {
        alive++;
        if (e.inFlight().size() < e.highWaterMark(spec.hwm())
            && (spec.recycleAfter() == 0 || e.calls() + e.inFlight().size() < spec.recycleAfter())) {
          open.add(e);
        }
      }
    }
    WarmWorker parents = parentsEngine(call, open);
    if (parents != null) {
      send(parents, call);
      return true;
    }
    if (open.isEmpty() || open.stream().allMatch(e -> !e.inFlight().isEmpty()) && mayGrow(alive)) {
      if (!mayGrow(alive)) {
        return false;
      }
      WarmWorker started = starter.start(call);
      engines.add(started);
      open = List.of(started);
    }
    List<WorkerScheme.Load> loads = open.stream().map(e -> new WorkerScheme.Load(e.inFlight().size(), e.lastUsed())).toList();
    send(open.get(spec.scheme().choose(loads, random::nextInt)), call);
    return true;
  }

  private void send(WarmWorker engine, PoolCall call) {
    if (engine.send(call, ++sequence, sequence) && call.begin()) {
      starting.add(call);
    }
    String dir = call.request().env().get("BERTH_TASK_DIR");
    if (dir != null) {
      ranIn.put(dir, engine);
    }
  }

  /**
   * The engine a parent of the call ran in ({@code follow}, or {@code after}), when it is among the
   * open engines: a dependant goes where its parent's state is warm. Lock held.
   */
  private WarmWorker parentsEngine(PoolCall call, List<WarmWorker> open) {
    if (ranIn.isEmpty()) {
      return null;
    }
    for (Map.Entry<String, String> e : call.request().env().entrySet()) {
      if (e.getKey().startsWith("BERTH_DEP_") && e.getKey().endsWith("_DIR")) {
        WarmWorker engine = ranIn.get(e.getValue());
        if (engine != null && open.contains(engine)) {
          return engine;
        }
      }
    }
    return null;
  }

  /** An engine may start while the device has fewer than {@code size} ({@code auto}: no busy-free engine). */
  private boolean mayGrow(int alive) {
    return !closed && (spec.size() == 0 || alive < spec.size());
  }

  /** An engine answered: the call ends as the reply says, the engine may retire, and a waiting call may go. */
  void replied(WarmWorker engine, JsonNode reply) {
    PoolCall call;
    MeasuredUsage usage;
    synchronized (this) {
      call = engine.answered(reply);
      beginNext(engine);
      if (reply.path("skipped").asBoolean()) {
        call = null; // a call ended while it was queued there: nothing ran
        usage = MeasuredUsage.NONE;
        if (engine.retiring()) {
          engine.retire();
        }
      } else {
        usage = measured(engine, reply);
      }
    }
    announceStarts(); // the call begun now is journalled as running before its own end can come
    if (call != null) {
      call.end(reply.path("ok").asBoolean() ? 0 : 1, usage);
    }
    drain();
  }

  /** The engine's figures after a call, which may retire it. Lock held. */
  private MeasuredUsage measured(WarmWorker engine, JsonNode reply) {
    long rss = reply.path("rss").asLong(0);
    engine.measured(rss);
    boolean recycle = spec.recycleAfter() > 0 && engine.calls() >= spec.recycleAfter()
        || spec.recycleMemoryBytes() > 0 && rss > spec.recycleMemoryBytes();
    if (recycle || engine.retiring()) {
      engine.retire();
    }
    return new MeasuredUsage(rss > 0 ? OptionalLong.of(rss) : OptionalLong.empty(),
        OptionalDouble.of(engine.cpuSince(reply)), OptionalLong.empty(), false);
  }

  /**
   * The engine begins the call now first in it; an ended one it is to skip (see {@link #terminate}) is
   * given its grace to be answered, and its engine is ended if the call began after all. Lock held.
   */
  private void beginNext(WarmWorker engine) {
    PoolCall next = engine.inFlight().peek();
    if (next == null) {
      return;
    }
    if (!next.ended()) {
      if (next.begin()) {
        starting.add(next);
      }
      return;
    }
    try {
      killTimer.schedule(() -> {
        synchronized (this) {
          if (engine.inFlight().peek() != next) {
            return;
          }
        }
        engine.terminate(0, killTimer);
      }, skipGraceMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      engine.terminate(0, killTimer);
    }
  }

  /** Tells the listeners of calls begun under the lock. Lock not held. */
  private void announceStarts() {
    List<PoolCall> begun;
    synchronized (this) {
      if (starting.isEmpty()) {
        return;
      }
      begun = List.copyOf(starting);
      starting.clear();
    }
    begun.forEach(PoolCall::announceStart);
  }

  /** An engine exited: its calls end with its exit, and the calls waiting get engines. */
  void exited(WarmWorker engine, int code) {
    List<PoolCall> lost = new ArrayList<>();
    String setup = engine.setupError();
    synchronized (this) {
      engines.remove(engine);
      ranIn.values().removeIf(e -> e == engine);
      List<PoolCall> unbegun = new ArrayList<>();
      for (PoolCall call : engine.inFlight()) {
        if (call.started() || setup != null) {
          lost.add(call);
        } else if (!call.ended()) {
          unbegun.add(call);
        }
      }
      engine.inFlight().clear();
      for (int i = unbegun.size() - 1; i >= 0; i--) {
        unbegun.get(i).unsent();
        waiting.addFirst(unbegun.get(i)); // ahead of later calls, as they were sent before them
      }
    }
    for (PoolCall call : lost) {
      String why = setup != null ? "the engine's setup failed:\n" + setup
          : "engine " + engine.name() + " exited with " + code + " while running this call\n";
      note(call, why);
      call.end(code == 0 ? 1 : code, MeasuredUsage.NONE);
    }
    drain();
  }

  /** Starts what waits, as engines free up; a call whose engine cannot start fails to start. */
  private void drain() {
    List<PoolCall> failed = new ArrayList<>();
    synchronized (this) {
      for (Iterator<PoolCall> it = waiting.iterator(); it.hasNext(); ) {
        PoolCall next = it.next();
        try {
          if (dispatch(next)) {
            it.remove();
          }
        } catch (LaunchException e) {
          it.remove();
          note(next, e.getMessage() + "\n");
          failed.add(next);
        }
      }
    }
    failed.forEach(c -> c.end(127, MeasuredUsage.NONE));
    announceStarts();
  }

  /**
   * Ends the call: its engine when it runs (the pool replaces it; the calls queued behind it go to
   * other engines), else its place in the pool's queue or its engine's. A call queued in an engine is
   * skipped there and ends at once; should the engine have begun it meanwhile, the engine is ended
   * unless the call is answered within {@code graceMillis} of its start.
   */
  void terminate(PoolCall call, long graceMillis) {
    WarmWorker engine = call.engine();
    synchronized (this) {
      if (waiting.remove(call)) {
        engine = null;
      } else if (engine == null || !engine.inFlight().contains(call)) {
        return; // already ended
      } else if (!call.started()) {
        skipGraceMillis = Math.max(0, graceMillis);
        engine.skip(call);
        engine = null;
      }
    }
    if (engine == null) {
      call.end(143, MeasuredUsage.NONE);
    } else {
      engine.terminate(graceMillis, killTimer);
    }
  }

  /** Starts no more engines; idle engines leave, busy ones after their calls. */
  synchronized void close() {
    closed = true;
    engines.forEach(WarmWorker::retire);
  }

  /** What this pool's live engines hold beyond their last measured resident memory ({@code memory}). */
  synchronized long heldMemoryBytes() {
    long held = 0;
    if (spec.memoryBytes() > 0) {
      for (WarmWorker e : engines) {
        held += Math.max(0, spec.memoryBytes() - e.residentBytes());
      }
    }
    return held;
  }

  /** What this pool's live engines pinned to {@code device} hold there beyond their processes' use ({@code gpu-memory}). */
  synchronized long heldGpuMemoryBytes(GpuDevice device) {
    long held = 0;
    if (spec.gpuMemoryBytes() > 0) {
      for (WarmWorker e : engines) {
        if (e.device().equals(device.id())) {
          long used = device.processes().stream().filter(p -> p.pid() == e.pid())
              .mapToLong(p -> Math.max(0, p.usedMemoryBytes())).sum();
          held += Math.max(0, spec.gpuMemoryBytes() - used);
        }
      }
    }
    return held;
  }

  /** How many calls wait for an engine, for tests. */
  synchronized int waitingCalls() {
    return waiting.size();
  }

  /** The engines now, for tests and status. */
  synchronized List<String> engineNames() {
    return engines.stream().map(WarmWorker::name).toList();
  }

  private static void note(PoolCall call, String text) {
    try {
      Files.createDirectories(call.request().stderr().getParent()); // the engine may not have made it
      Files.writeString(call.request().stderr(), text, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      // the exit code still tells the call failed
    }
  }
}

package dev.berth.runtime.pool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.pool.EngineScheme;
import dev.berth.core.pool.PoolSpec;
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
import java.util.concurrent.ScheduledExecutorService;

/**
 * One named pool: its engines by device, started lazily up to its size (for {@code auto}, one more
 * whenever every engine of the device is at its high-water mark), chosen by its scheme, recycled
 * after so many calls or once their memory grew past the limit, and replaced when they die. A call
 * whose parent ran in one of its engines goes to that engine when it has room. Calls
 * no engine can take yet wait in order. Thread-safe: one lock guards the pool; exits are reported
 * outside it.
 */
final class EnginePool {

  private final PoolSpec spec;
  private final EngineStarter starter;
  private final ScheduledExecutorService killTimer;
  private final List<PoolEngine> engines = new ArrayList<>();
  private final Deque<PoolCall> waiting = new ArrayDeque<>();
  /** The engine each task's call was sent to, by the task's folder (how a dependant names its parents). */
  private final Map<String, PoolEngine> ranIn = new HashMap<>();
  private final SplittableRandom random;
  private long sequence;
  private boolean closed;

  EnginePool(PoolSpec spec, EngineStarter starter, ScheduledExecutorService killTimer) {
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
  synchronized void submit(PoolCall call) throws LaunchException {
    if (!dispatch(call)) {
      waiting.add(call);
    }
  }

  /** Whether the call went to an engine. Lock held. */
  private boolean dispatch(PoolCall call) throws LaunchException {
    String device = call.call().device();
    List<PoolEngine> open = new ArrayList<>();
    int alive = 0;
    for (PoolEngine e : engines) {
      if (e.device().equals(device) && e.launcher().equals(call.call().launcher()) && !e.retiring()) {
        alive++;
        if (e.inFlight().size() < spec.hwm()) {
          open.add(e);
        }
      }
    }
    PoolEngine parents = parentsEngine(call, open);
    if (parents != null) {
      send(parents, call);
      return true;
    }
    if (open.isEmpty() || open.stream().allMatch(e -> !e.inFlight().isEmpty()) && mayGrow(alive)) {
      if (!mayGrow(alive)) {
        return false;
      }
      PoolEngine started = starter.start(call);
      engines.add(started);
      open = List.of(started);
    }
    List<EngineScheme.Load> loads = open.stream().map(e -> new EngineScheme.Load(e.inFlight().size(), e.lastUsed())).toList();
    send(open.get(spec.scheme().choose(loads, random::nextInt)), call);
    return true;
  }

  private void send(PoolEngine engine, PoolCall call) {
    engine.send(call, ++sequence, sequence);
    String dir = call.request().env().get("BERTH_TASK_DIR");
    if (dir != null) {
      ranIn.put(dir, engine);
    }
  }

  /**
   * The engine a parent of the call ran in ({@code follow}, or {@code after}), when it is among the
   * open engines: a dependant goes where its parent's state is warm. Lock held.
   */
  private PoolEngine parentsEngine(PoolCall call, List<PoolEngine> open) {
    if (ranIn.isEmpty()) {
      return null;
    }
    for (Map.Entry<String, String> e : call.request().env().entrySet()) {
      if (e.getKey().startsWith("BERTH_DEP_") && e.getKey().endsWith("_DIR")) {
        PoolEngine engine = ranIn.get(e.getValue());
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
  void replied(PoolEngine engine, JsonNode reply) {
    PoolCall call;
    MeasuredUsage usage;
    synchronized (this) {
      call = engine.answered(reply);
      long rss = reply.path("rss").asLong(0);
      engine.measured(rss);
      usage = new MeasuredUsage(rss > 0 ? OptionalLong.of(rss) : OptionalLong.empty(),
          OptionalDouble.of(engine.cpuSince(reply)), OptionalLong.empty(), false);
      boolean recycle = spec.recycleAfter() > 0 && engine.calls() >= spec.recycleAfter()
          || spec.recycleMemoryBytes() > 0 && rss > spec.recycleMemoryBytes();
      if (recycle || engine.retiring()) {
        engine.retire();
      }
    }
    if (call != null) {
      call.end(reply.path("ok").asBoolean() ? 0 : 1, usage);
    }
    drain();
  }

  /** An engine exited: its calls end with its exit, and the calls waiting get engines. */
  void exited(PoolEngine engine, int code) {
    List<PoolCall> lost;
    synchronized (this) {
      engines.remove(engine);
      ranIn.values().removeIf(e -> e == engine);
      lost = new ArrayList<>(engine.inFlight());
      engine.inFlight().clear();
    }
    String setup = engine.setupError();
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
  }

  /** Ends the call: its engine when it runs (the pool replaces it), else its place in the queue. */
  void terminate(PoolCall call, long graceMillis) {
    PoolEngine engine = null;
    synchronized (this) {
      if (waiting.remove(call)) {
        engine = null;
      } else {
        for (PoolEngine e : engines) {
          if (e.inFlight().contains(call)) {
            engine = e;
          }
        }
        if (engine == null) {
          return; // already ended
        }
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
    engines.forEach(PoolEngine::retire);
  }

  /** What this pool's live engines hold beyond their last measured resident memory ({@code memory}). */
  synchronized long heldMemoryBytes() {
    long held = 0;
    if (spec.memoryBytes() > 0) {
      for (PoolEngine e : engines) {
        held += Math.max(0, spec.memoryBytes() - e.residentBytes());
      }
    }
    return held;
  }

  /** What this pool's live engines pinned to {@code device} hold there beyond their processes' use ({@code gpu-memory}). */
  synchronized long heldGpuMemoryBytes(GpuDevice device) {
    long held = 0;
    if (spec.gpuMemoryBytes() > 0) {
      for (PoolEngine e : engines) {
        if (e.device().equals(device.id())) {
          long used = device.processes().stream().filter(p -> p.pid() == e.pid())
              .mapToLong(p -> Math.max(0, p.usedMemoryBytes())).sum();
          held += Math.max(0, spec.gpuMemoryBytes() - used);
        }
      }
    }
    return held;
  }

  /** The engines now, for tests and status. */
  synchronized List<String> engineNames() {
    return engines.stream().map(PoolEngine::name).toList();
  }

  private static void note(PoolCall call, String text) {
    try {
      Files.writeString(call.request().stderr(), text, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      // the exit code still tells the call failed
    }
  }
}

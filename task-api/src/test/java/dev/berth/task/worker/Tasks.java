package dev.berth.task.worker;

import dev.berth.task.BerthTask;
import dev.berth.task.Device;
import dev.berth.task.TaskContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Task classes the worker tests run; public because the worker creates them by name. */
final class Tasks {

  private Tasks() {}

  /** Loads a list, publishes items, and reports what it trained on. */
  public static final class Happy implements BerthTask {
    private List<Integer> data;

    @Override
    public void load(TaskContext context) {
      data = List.of(1, 2, 3);
      context.setItem("rows", data.size());
    }

    @Override
    public Map<String, Object> train(Device device, TaskContext context) {
      context.setItem("progress", Map.of("epoch", 1));
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("device", device.name());
      result.put("sum", data.stream().mapToInt(Integer::intValue).sum());
      result.put("lr", context.params().get("lr"));
      result.put("best", null);
      return result;
    }
  }

  /** Runs out of heap while loading. */
  public static final class OomInLoad implements BerthTask {
    @Override
    public void load(TaskContext context) {
      throw new OutOfMemoryError("Java heap space");
    }

    @Override
    public Map<String, Object> train(Device device, TaskContext context) {
      return Map.of();
    }
  }

  /** Runs out of GPU memory on its first train only, the way native libraries report it. */
  public static final class OomOnceInTrain implements BerthTask {
    static final AtomicInteger LOADS = new AtomicInteger();
    private int trains;

    @Override
    public void load(TaskContext context) {
      LOADS.incrementAndGet();
    }

    @Override
    public Map<String, Object> train(Device device, TaskContext context) {
      if (++trains == 1) {
        throw new IllegalStateException("wrapped", new RuntimeException("CUDA out of memory. Tried to allocate 2.00 GiB"));
      }
      return Map.of("device", device.name(), "trains", trains);
    }
  }

  /** Fails in train with an ordinary bug. */
  public static final class Failing implements BerthTask {
    @Override
    public Map<String, Object> train(Device device, TaskContext context) {
      throw new IllegalStateException("bad batch");
    }
  }

  /** Not a task at all. */
  public static final class NotATask {}

  /** A task without the constructor the worker needs. */
  public static final class NoDefaultConstructor implements BerthTask {
    public NoDefaultConstructor(String name) {}

    @Override
    public Map<String, Object> train(Device device, TaskContext context) {
      return Map.of();
    }
  }

  /** A pool's setup class: initialising it counts. */
  public static final class Warm {
    static final AtomicInteger INITIALISED = new AtomicInteger();

    static {
      INITIALISED.incrementAndGet();
    }

    private Warm() {}
  }
}

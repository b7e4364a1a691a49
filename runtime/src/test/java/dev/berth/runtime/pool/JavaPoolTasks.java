package dev.berth.runtime.pool;

import dev.berth.task.BerthTask;
import dev.berth.task.Device;
import dev.berth.task.TaskContext;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Java tasks the Java engine tests run in warm engines; public because the engine creates them by name. */
public final class JavaPoolTasks {

  static final AtomicInteger SETUPS = new AtomicInteger();
  static final AtomicInteger CALLS = new AtomicInteger();

  private JavaPoolTasks() {}

  /** The setup a pool runs once per engine. */
  public static void setup() {
    SETUPS.incrementAndGet();
  }

  /** Says where it ran: its engine's pid, how many calls and setups that engine saw, its params. */
  public static final class Where implements BerthTask {
    @Override
    public Map<String, Object> train(Device device, TaskContext context) {
      System.out.println("out " + context.taskId());
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("pid", ProcessHandle.current().pid());
      result.put("calls", CALLS.incrementAndGet());
      result.put("setups", SETUPS.get());
      result.put("task", context.taskId());
      result.put("device", device.name());
      result.put("params", context.params());
      return result;
    }
  }

  /** Prints nothing. */
  public static final class Quiet implements BerthTask {
    @Override
    public Map<String, Object> train(Device device, TaskContext context) {
      return Map.of("quiet", true);
    }
  }

  /** Fails with an ordinary bug. */
  public static final class Boom implements BerthTask {
    @Override
    public Map<String, Object> train(Device device, TaskContext context) {
      throw new IllegalStateException("it broke");
    }
  }

  /** Writes its pid to the file its param {@code ready} names, then waits on the file {@code gate} names. */
  public static final class Block implements BerthTask {
    @Override
    public Map<String, Object> train(Device device, TaskContext context) throws Exception {
      Files.writeString(Path.of(context.params().get("ready")), ProcessHandle.current().pid() + "\n");
      try (BufferedReader gate = Files.newBufferedReader(Path.of(context.params().get("gate")), StandardCharsets.UTF_8)) {
        gate.readLine();
      }
      return Map.of("pid", ProcessHandle.current().pid());
    }
  }

  /** Keeps 150 MiB more of the engine's heap (touched, so resident) on each call: a task that leaks. */
  public static final class Leak implements BerthTask {
    private static final List<byte[]> KEPT = new ArrayList<>();

    @Override
    public Map<String, Object> train(Device device, TaskContext context) {
      byte[] block = new byte[150 << 20];
      Arrays.fill(block, (byte) 1);
      KEPT.add(block);
      return Map.of("pid", ProcessHandle.current().pid());
    }
  }
}

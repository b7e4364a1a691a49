package dev.berth.client;

import dev.berth.task.BerthTask;
import dev.berth.task.Device;
import dev.berth.task.TaskContext;
import java.util.Map;

/** A two-stage Java task for the tests: loads {@code x} from its parameters, trains to its square. */
public final class SquareTask implements BerthTask {

  private int x;

  /** Made by the worker. */
  public SquareTask() {}

  @Override
  public void load(TaskContext context) {
    x = Integer.parseInt(context.params().get("x"));
  }

  @Override
  public Map<String, Object> train(Device device, TaskContext context) {
    context.setItem("device", device.name());
    context.setItem("history", java.util.List.of(1, 2, x));
    return Map.of("square", x * x);
  }
}

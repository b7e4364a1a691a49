package dev.berth.task;

import java.util.OptionalInt;

/**
 * The device a task trains on: {@code cpu}, or a GPU such as {@code cuda:1}. The index is the
 * physical one: a two-stage task sees every GPU, because its device is only known after loading.
 *
 * @param name the device name as Berth sends it
 */
public record Device(String name) {

  private static final Device CPU = new Device("cpu");

  /** Rejects a blank name. */
  public Device {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a device needs a name, such as cpu or cuda:0");
    }
  }

  /** The CPU. */
  public static Device cpu() {
    return CPU;
  }

  /** Whether this is the CPU. */
  public boolean isCpu() {
    return name.equals("cpu");
  }

  /** The device's index, the {@code N} of {@code cuda:N}; empty for the CPU. */
  public OptionalInt index() {
    int colon = name.lastIndexOf(':');
    if (colon < 0) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(name.substring(colon + 1)));
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  @Override
  public String toString() {
    return name;
  }
}

package dev.berth.core.resources;

import java.util.Objects;

/**
 * What another Berth run on this host holds on one device and has not yet been seen to use: its
 * reservation minus what the probe measured for it, so the free memory a reading shows is not
 * taken twice.
 *
 * @param run the other run's name
 * @param user the account that started it
 * @param device {@code host} or a device id such as {@code cuda:0}
 * @param memoryBytes host memory (on {@code host}) or GPU memory (on a device) still outstanding
 * @param milliCpus cores it holds, in thousandths (on {@code host} only)
 */
public record Holding(String run, String user, String device, long memoryBytes, long milliCpus) {

  /** Validates. */
  public Holding {
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(device, "device");
    if (memoryBytes < 0 || milliCpus < 0) {
      throw new IllegalArgumentException("a holding is never negative");
    }
  }
}

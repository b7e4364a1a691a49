package dev.berth.task;

import java.util.Map;

/**
 * A two-stage task, fedflow style. Berth first asks it to {@link #load} on the CPU, then, once a
 * device is free, to {@link #train} on that device. The same instance serves both stages, so
 * {@code load} keeps what it loaded in fields. When training runs out of memory (a Java
 * {@link OutOfMemoryError}, or a native library's CUDA out-of-memory error) the instance is kept
 * and {@code train} may be called again, possibly on another device.
 *
 * <p>Implementations need a public no-argument constructor.
 */
public interface BerthTask {

  /** Loads data and builds whatever training needs, on the CPU. Does nothing by default. */
  default void load(TaskContext context) throws Exception {}

  /**
   * Trains on {@code device} and returns the results for the report. Values may be strings,
   * numbers, booleans, null, lists and maps of those; anything else is reported as its
   * {@code toString()}. A null result counts as an empty map.
   */
  Map<String, Object> train(Device device, TaskContext context) throws Exception;
}

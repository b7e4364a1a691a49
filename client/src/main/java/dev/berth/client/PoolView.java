package dev.berth.client;

import java.util.List;

/**
 * A session's view of one pool's warm engines, to map over (ipyparallel's
 * {@code load_balanced_view().map}): made by {@link Berth#view(Pool)}. Each map is the session's one
 * {@code map} (ordered or not, {@code maxOutstanding}, {@code returnExceptions}, ids
 * {@code map<N>-<index>}), each value being the mapping the task returned. For per-task settings
 * (memory, retries) map a {@link Tasks#call} or {@link Tasks#java(String, Pool, Class)} template with
 * {@link Berth#map(TaskTemplate, List, MapOptions)} instead. See docs/pools.md.
 */
public final class PoolView {

  private final Berth berth;
  private final Pool pool;

  PoolView(Berth berth, Pool pool) {
    this.berth = berth;
    this.pool = java.util.Objects.requireNonNull(pool, "pool");
  }

  /** The pool. */
  public Pool pool() {
    return pool;
  }

  /** {@link #map(String, List, MapOptions)} with {@link MapOptions#defaults()}. */
  public MapResults map(String function, List<?> inputs) {
    return map(function, inputs, MapOptions.defaults());
  }

  /**
   * Calls the Python function {@code function} ({@code package.module:function}) once per input in
   * the pool's engines: a {@code Map} input is the call's keyword arguments, any other input is
   * passed as {@code input=}.
   *
   * @throws IllegalArgumentException when the pool is not a Python pool or the function is not {@code module:function}
   */
  public MapResults map(String function, List<?> inputs, MapOptions options) {
    return berth.map(Tasks.call(berth.mapIds(options), pool, function), inputs, options);
  }

  /** {@link #map(Class, List, MapOptions)} with {@link MapOptions#defaults()}. */
  public MapResults map(Class<?> taskClass, List<?> inputs) {
    return map(taskClass, inputs, MapOptions.defaults());
  }

  /**
   * Runs the Java task {@code taskClass} (a {@code BerthTask}) once per input in the pool's warm
   * JVMs: a {@code Map} input is its {@code params()}, any other input its {@code input} param.
   *
   * @throws IllegalArgumentException when the pool is not a Java pool or the class cannot run as a task
   */
  public MapResults map(Class<?> taskClass, List<?> inputs, MapOptions options) {
    return berth.map(Tasks.java(berth.mapIds(options), pool, taskClass), inputs, options);
  }
}

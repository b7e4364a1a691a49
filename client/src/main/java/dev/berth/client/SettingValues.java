package dev.berth.client;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The task keys a group may default, each null until set: the Java twin of the spec's setting
 * table. Merging and applying follow the spec exactly (a task's value beats its group's, {@code env}
 * is the union, memory falls back to {@code scheduler.default-memory}), so that builders and YAML
 * produce equal models. Mutable; copied whenever it leaves a builder.
 */
final class SettingValues {

  Map<String, String> env = new LinkedHashMap<>();
  Long memoryBytes;
  Double cpus;
  Integer priority;
  DependsOn after;
  DependsOn follow;
  Integer retries;
  Duration retryDelay;
  Double retryBackoff;
  Duration retryDelayMax;
  Duration queueTimeout;
  Duration timeout;
  Long gpuMemoryBytes;
  Integer gpus;
  String device;
  List<Integer> targets;
  String placement;
  Boolean blacklist;
  Boolean twoStage;

  SettingValues copy() {
    SettingValues c = new SettingValues();
    c.env = new LinkedHashMap<>(env);
    c.memoryBytes = memoryBytes;
    c.cpus = cpus;
    c.priority = priority;
    c.after = after;
    c.follow = follow;
    c.retries = retries;
    c.retryDelay = retryDelay;
    c.retryBackoff = retryBackoff;
    c.retryDelayMax = retryDelayMax;
    c.queueTimeout = queueTimeout;
    c.timeout = timeout;
    c.gpuMemoryBytes = gpuMemoryBytes;
    c.gpus = gpus;
    c.device = device;
    c.targets = targets;
    c.placement = placement;
    c.blacklist = blacklist;
    c.twoStage = twoStage;
    return c;
  }

  /** These values as a group's defaults with {@code task}'s values over them. */
  SettingValues overriddenBy(SettingValues task) {
    SettingValues m = copy();
    m.env.putAll(task.env);
    m.memoryBytes = pick(memoryBytes, task.memoryBytes);
    m.cpus = pick(cpus, task.cpus);
    m.priority = pick(priority, task.priority);
    m.after = pick(after, task.after);
    m.follow = pick(follow, task.follow);
    m.retries = pick(retries, task.retries);
    m.retryDelay = pick(retryDelay, task.retryDelay);
    m.retryBackoff = pick(retryBackoff, task.retryBackoff);
    m.retryDelayMax = pick(retryDelayMax, task.retryDelayMax);
    m.queueTimeout = pick(queueTimeout, task.queueTimeout);
    m.timeout = pick(timeout, task.timeout);
    m.gpuMemoryBytes = pick(gpuMemoryBytes, task.gpuMemoryBytes);
    m.gpus = pick(gpus, task.gpus);
    m.device = pick(device, task.device);
    m.targets = pick(targets, task.targets);
    m.placement = pick(placement, task.placement);
    m.blacklist = pick(blacklist, task.blacklist);
    m.twoStage = pick(twoStage, task.twoStage);
    return m;
  }

  /** A copy with placeholders filled in the values that take them: env values and dependency entries. */
  SettingValues filled(UnaryOperator<String> fill) {
    SettingValues c = copy();
    c.env.replaceAll((k, v) -> fill.apply(v));
    c.after = after == null ? null : after.mapTasks(fill);
    c.follow = follow == null ? null : follow.mapTasks(fill);
    return c;
  }

  /**
   * Puts every value, or its config fallback, on {@code task}, in the order the spec does; the
   * dependencies are resolved and set by the caller.
   */
  void applyTo(TaskSpec.Builder task, SchedulerConfig config) {
    task.env(env);
    task.memoryBytes(memoryBytes != null ? memoryBytes : config.defaultMemoryBytes());
    if (cpus != null) {
      task.cpus(cpus);
    }
    if (priority != null) {
      task.priority(priority);
    }
    if (retries != null) {
      task.retries(retries);
    }
    if (retryDelay != null) {
      task.retryDelay(retryDelay);
    }
    if (retryBackoff != null) {
      task.retryBackoff(retryBackoff);
    }
    if (retryDelayMax != null) {
      task.retryDelayMax(retryDelayMax);
    }
    if (queueTimeout != null) {
      task.queueTimeout(queueTimeout);
    }
    if (timeout != null) {
      task.timeout(timeout);
    }
    if (gpuMemoryBytes != null) {
      task.gpuMemoryBytes(gpuMemoryBytes);
    }
    if (gpus != null) {
      task.gpus(gpus);
    }
    if (device != null) {
      task.device(device);
    }
    if (targets != null) {
      task.targets(targets);
    }
    if (placement != null) {
      task.placement(placement);
    }
    if (blacklist != null) {
      task.blacklist(blacklist);
    }
    if (twoStage != null) {
      task.twoStage(twoStage);
    }
    task.defaultGpuMemoryBytes(config.defaultCudaMemoryBytes());
  }

  private static <T> T pick(T group, T task) {
    return task != null ? task : group;
  }
}

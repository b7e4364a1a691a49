package dev.berth.spec;

import dev.berth.core.model.SchedulerConfig;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** The table of task keys a group may default: the one place a new task key is added. */
final class TaskSettings {

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** Every such key, in the order they are documented. */
  static final List<TaskSetting<?>> ALL = List.of(
      TaskSetting.<Map<String, Template>>of(
              "env", TaskSettings::env, (task, env, x) -> task.env(fill(env, x.values())))
          .mergedWith(TaskSettings::union),
      TaskSetting.of("memory", Values.MEMORY, (task, bytes, values) -> task.memoryBytes(bytes))
          .orElse(SchedulerConfig::defaultMemoryBytes),
      TaskSetting.of("cpus", Values.CORES, (task, cpus, values) -> task.cpus(cpus)),
      TaskSetting.of("priority", Values.wholeNumber(Integer.MIN_VALUE), (task, p, values) -> task.priority(p)),
      TaskSetting.of("after", DependencyRef::parse, (task, ref, x) -> x.dependencies().after(x.taskId(), ref, x.values())),
      TaskSetting.of("follow", DependencyRef::parse, (task, ref, x) -> x.dependencies().follow(x.taskId(), ref, x.values())),
      TaskSetting.of("retries", Values.wholeNumber(0), (task, n, x) -> task.retries(n)),
      TaskSetting.of("retry-delay", Values.DURATION, (task, d, x) -> task.retryDelay(d)),
      TaskSetting.of("retry-backoff", Values.BACKOFF, (task, b, x) -> task.retryBackoff(b)),
      TaskSetting.of("retry-delay-max", Values.DURATION, (task, d, x) -> task.retryDelayMax(d)),
      TaskSetting.of("queue-timeout", Values.POSITIVE_DURATION, (task, d, x) -> task.queueTimeout(d)),
      TaskSetting.of("timeout", Values.POSITIVE_DURATION, (task, d, x) -> task.timeout(d)),
      TaskSetting.of("gpu-memory", Values.MEMORY, (task, bytes, x) -> task.gpuMemoryBytes(bytes)),
      TaskSetting.of("gpus", Values.wholeNumber(0), (task, n, x) -> task.gpus(n)),
      TaskSetting.of("device", Values.DEVICE, (task, d, x) -> task.device(d)),
      TaskSetting.of("targets", Values.DEVICE_INDICES, (task, list, x) -> task.targets(list)),
      TaskSetting.of("placement", Values.PLACEMENT, (task, p, x) -> task.placement(p)),
      TaskSetting.of("blacklist", Values.BOOLEAN, (task, b, x) -> task.blacklist(b)),
      TaskSetting.of("two-stage", Values.BOOLEAN, (task, b, x) -> task.twoStage(b)));

  private TaskSettings() {}

  /** The keys of {@link #ALL}. */
  static List<String> keys() {
    return ALL.stream().map(TaskSetting::key).toList();
  }

  private static Map<String, Template> env(YamlNode node, Field field) throws SpecException {
    YamlNode.Mapping map = Keys.mapping(node, field, "variable names to values, e.g. {SEED: \"1\"}");
    Map<String, Template> vars = new LinkedHashMap<>();
    for (Map.Entry<String, YamlNode> e : map.entries().entrySet()) {
      Field f = field.key(e.getKey());
      if (!ENV_NAME.matcher(e.getKey()).matches()) {
        throw f.problem("'" + e.getKey() + "' is not a valid environment variable name; use letters, digits"
            + " and '_', not starting with a digit");
      }
      if (!(e.getValue() instanceof YamlNode.Scalar s) || s.isNull()) {
        throw f.problem("must be a single value but was " + e.getValue().describe()
            + "; write '' for an empty value");
      }
      vars.put(e.getKey(), new Template(s.text(), f));
    }
    return Collections.unmodifiableMap(vars);
  }

  private static Map<String, Template> union(Map<String, Template> group, Map<String, Template> task) {
    Map<String, Template> merged = new LinkedHashMap<>(group);
    merged.putAll(task);
    return merged;
  }

  private static Map<String, String> fill(Map<String, Template> vars, Map<String, String> matrixValues)
      throws SpecException {
    Map<String, String> filled = new LinkedHashMap<>();
    for (Map.Entry<String, Template> e : vars.entrySet()) {
      filled.put(e.getKey(), e.getValue().fill(matrixValues));
    }
    return filled;
  }
}

package dev.berth.spec;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@link TaskSettings} a group or a task sets, parsed. */
final class SettingValues {

  /** Nothing set. */
  static final SettingValues NONE = new SettingValues(Map.of());

  private final Map<TaskSetting<?>, Object> values;

  private SettingValues(Map<TaskSetting<?>, Object> values) {
    this.values = values;
  }

  /** Parses the settings keys of {@code map}; other keys are the caller's. */
  static SettingValues parse(YamlNode.Mapping map, Field field) throws SpecException {
    Map<TaskSetting<?>, Object> values = new LinkedHashMap<>();
    for (TaskSetting<?> setting : TaskSettings.ALL) {
      YamlNode node = map.get(setting.key());
      if (node != null) {
        values.put(setting, setting.parser().parse(node, field.key(setting.key())));
      }
    }
    return new SettingValues(values);
  }

  /** These values as group defaults, with {@code task}'s values merged over them. */
  SettingValues overriddenBy(SettingValues task) {
    Map<TaskSetting<?>, Object> merged = new LinkedHashMap<>(values);
    for (Map.Entry<TaskSetting<?>, Object> e : task.values.entrySet()) {
      merged.merge(e.getKey(), e.getValue(), (group, own) -> merge(e.getKey(), group, own));
    }
    return new SettingValues(merged);
  }

  /** Applies every setting, or its config fallback, to {@code task}. */
  void applyTo(TaskSpec.Builder task, Expansion expansion, SchedulerConfig config)
      throws SpecException {
    for (TaskSetting<?> setting : TaskSettings.ALL) {
      Object value = values.get(setting);
      if (value == null && setting.fallback() != null) {
        value = setting.fallback().apply(config);
      }
      if (value != null) {
        apply(setting, value, task, expansion);
      }
    }
  }

  @SuppressWarnings("unchecked") // values only ever holds what the setting's own parser returned
  private static <T> Object merge(TaskSetting<T> setting, Object group, Object task) {
    return setting.merge().apply((T) group, (T) task);
  }

  @SuppressWarnings("unchecked") // as above
  private static <T> void apply(TaskSetting<T> setting, Object value, TaskSpec.Builder task,
      Expansion expansion) throws SpecException {
    setting.applier().apply(task, (T) value, expansion);
  }
}

package dev.berth.spec;

import dev.berth.core.model.SettingsTable;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskValues;
import dev.berth.core.settings.InvalidValue;
import java.util.Map;
import java.util.Optional;

/**
 * Checks a group's and its tasks' {@code slurm:} options where they are written, with the keys and
 * parsers the Slurm adapter's table declares for a group ({@link SettingsTable#groupKeys()}), so a bad
 * value is one line naming its file, field and rule when the spec is read, not when a job is submitted.
 */
final class GroupOptions {

  private GroupOptions() {}

  /** Checks {@code group}'s options and those of each of its task entries against {@code keys}' adapters. */
  static void check(GroupEntry group, ConfigKeys keys) throws SpecException {
    Optional<SettingsTable<?, ?>> table = keys.adapters().stream()
        .filter(t -> t.name().equals(TaskKeys.SLURM.key()) && !t.groupKeys().isEmpty()).findFirst();
    if (table.isEmpty()) {
      return; // no adapter reads them here
    }
    check(group.defaults(), group.field(), table.get());
    for (TaskEntry task : group.tasks()) {
      check(task.settings(), task.field(), table.get());
    }
  }

  private static <R> void check(TaskValues values, Field field, SettingsTable<R, ?> table) throws SpecException {
    Optional<Map<String, ?>> written = values.get(TaskKeys.SLURM);
    if (written.isEmpty()) {
      return;
    }
    try {
      table.over(table.defaults(), written.get());
    } catch (InvalidValue e) {
      throw field.key(TaskKeys.SLURM.key()).problem(e);
    }
  }
}

package dev.berth.spec;

import dev.berth.core.model.SchedulerKeys;
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
 * A group's {@code max-jobs} is core's {@link SchedulerKeys#MAX_JOBS} for the group's jobs, read by
 * {@link SchedulerKeys#groupMaxJobs}; a task may not set it, since it caps a group's jobs together.
 */
final class GroupOptions {

  /** The name of a group's own cap under {@code slurm:}. */
  private static final String MAX_JOBS = SchedulerKeys.MAX_JOBS.name();

  private GroupOptions() {}

  /** Checks {@code group}'s options and those of each of its task entries against {@code keys}' adapters. */
  static void check(GroupEntry group, ConfigKeys keys) throws SpecException {
    Field groupSlurm = group.field().key(TaskKeys.SLURM.key());
    try {
      SchedulerKeys.groupMaxJobs(group.defaults().get(TaskKeys.SLURM).orElse(null));
    } catch (InvalidValue e) {
      throw groupSlurm.problem(e);
    }
    for (TaskEntry task : group.tasks()) {
      if (task.settings().get(TaskKeys.SLURM).map(o -> o.containsKey(MAX_JOBS)).orElse(false)) {
        throw task.field().key(TaskKeys.SLURM.key()).key(MAX_JOBS).problem("caps the jobs of a whole group;"
            + " set it under the group's slurm:, not a task's");
      }
    }
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
      table.over(table.defaults(), SchedulerKeys.withoutGroupMaxJobs(written.get())); // max-jobs: checked above
    } catch (InvalidValue e) {
      throw field.key(TaskKeys.SLURM.key()).problem(e);
    }
  }
}

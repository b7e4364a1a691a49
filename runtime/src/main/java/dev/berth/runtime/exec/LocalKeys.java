package dev.berth.runtime.exec;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.Setting;
import dev.berth.core.settings.ValueText;
import dev.berth.runtime.exec.LocalSettings.Builder;
import java.util.List;

/**
 * The config keys of the local process executor, which {@link LocalSettings} is read from. Only the
 * executor acts on them, never the core's decisions, so they are the executor's own; they keep the
 * names, the {@code scheduler} section and the journal form they had when core declared them, so a
 * journal written then reads back the same. Both are journaled only when set.
 */
public final class LocalKeys {

  /** What {@code scheduler.enforce-memory} reads as {@code auto}: no choice made, so where the run runs decides. */
  private static final String AUTO = "auto";

  /** {@code scheduler.enforce-memory}: true, false, or null for {@code auto}. */
  public static final ConfigKey<LocalSettings, Builder, Boolean> ENFORCE_MEMORY =
      ConfigKey.of("scheduler.enforce-memory", "true, false or auto", LocalKeys::enforceMemory,
          Builder::enforceMemoryChoice, (LocalSettings s) -> s.enforceMemoryChoice().orElse(null),
          (Boolean v) -> v == null ? AUTO : String.valueOf(v),
          "limit each local task's memory to its reservation plus 10% (at least 64 MiB) in its "
              + "cgroup, so a runaway task is stopped alone as out of memory; auto: on inside a Slurm "
              + "allocation, whose memory Slurm enforces for the whole job, off elsewhere").asJournaledWhenSet();

  /** {@code scheduler.log-cap}. */
  public static final ConfigKey<LocalSettings, Builder, Long> LOG_CAP =
      ConfigKey.of("scheduler.log-cap", Setting.MEMORY_SIZE, Parsers.MEMORY, Builder::logCapBytes,
          LocalSettings::logCapBytes, ValueText::bytes,
          "most kept of each local attempt's stdout and stderr log: beyond it the head, a marker "
              + "line and the latest output").asJournaledWhenSet();

  /** The table, in documentation order; a run carries its settings as {@code local}. */
  public static final SettingsTable<LocalSettings, Builder> TABLE = SettingsTable.of("local", LocalSettings.class,
      LocalSettings::builder, Builder::build, List.of(ENFORCE_MEMORY, LOG_CAP));

  private LocalKeys() {}

  /** true or false as {@link Parsers#BOOLEAN} reads them, or {@code auto} for no choice (null). */
  private static Boolean enforceMemory(Object written) {
    if (written instanceof String s && s.strip().equalsIgnoreCase(AUTO)) {
      return null;
    }
    try {
      return Parsers.BOOLEAN.parse(written);
    } catch (InvalidValue e) {
      throw Parsers.wrong("must be true, false or auto", written);
    }
  }
}

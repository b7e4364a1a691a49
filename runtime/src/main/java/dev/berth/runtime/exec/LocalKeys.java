package dev.berth.runtime.exec;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.SettingsTable;
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

  /** {@code scheduler.enforce-memory}. */
  public static final ConfigKey<LocalSettings, Builder, Boolean> ENFORCE_MEMORY =
      ConfigKey.of("scheduler.enforce-memory", "true or false", Parsers.BOOLEAN, Builder::enforceMemory,
          LocalSettings::enforceMemory, String::valueOf,
          "limit each local task's memory to its reservation plus 10% (at least 64 MiB) in its "
              + "cgroup, so a runaway task is stopped alone as out of memory").asJournaledWhenSet();

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
}

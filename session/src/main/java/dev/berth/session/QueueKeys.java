package dev.berth.session;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.ValueText;
import java.time.Duration;
import java.util.List;

/**
 * The config keys of a user's queue ({@code berth submit}, docs/queue.md): only the queue's process
 * acts on them, so they are its own table. Journaled only when set, so a run's stored spec keeps the
 * text it had before the queue existed.
 */
public final class QueueKeys {

  /** {@code queue.idle-exit}. */
  public static final ConfigKey<QueueSettings, QueueSettings.Builder, Duration> IDLE_EXIT =
      ConfigKey.of("queue.idle-exit", "duration", Parsers.POSITIVE_DURATION, QueueSettings.Builder::idleExit,
          QueueSettings::idleExit, ValueText::duration,
          "how long a user's queue (berth submit) waits with no task left to run before its process ends;"
              + " the next submit starts it again").asJournaledWhenSet();

  /** The table; a run carries its settings as {@code queue}. */
  public static final SettingsTable<QueueSettings, QueueSettings.Builder> TABLE = SettingsTable.of("queue",
      QueueSettings.class, QueueSettings::builder, QueueSettings.Builder::build, List.of(IDLE_EXIT));

  private QueueKeys() {}
}

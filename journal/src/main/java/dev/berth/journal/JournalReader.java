package dev.berth.journal;

import dev.berth.core.model.SettingsTable;
import dev.berth.core.scheduling.RunState;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;

/**
 * Reads a journal without writing to it, for {@code berth status}: safe while the run's scheduler
 * is writing the same file from another process (each read sees whole flushes only). The run's
 * state is the core's fold over the events: {@link #state(Journal.Replay)}.
 */
public final class JournalReader implements AutoCloseable {

  private final Path file;
  private final Connection connection;

  private JournalReader(Path file, Connection connection) {
    this.file = file;
    this.connection = connection;
  }

  /**
   * Opens a journal read-only.
   *
   * @throws JournalException when the file is missing, not a SQLite database, another program's
   *     database, or of a newer schema version; corruption shows when the damaged part is read
   */
  public static JournalReader open(Path db) throws JournalException {
    return new JournalReader(db, Database.open(db, true));
  }

  /** The journal file. */
  public Path file() {
    return file;
  }

  /** Everything flushed so far, from one snapshot; empty when the run has not started. */
  public Optional<Journal.Replay> read() throws JournalException {
    return Reads.replay(connection, file);
  }

  /** The events flushed after event {@code seq}, oldest first: what is new since an earlier read. */
  public List<Journal.Entry> eventsAfter(long seq) throws JournalException {
    return Reads.eventsAfter(connection, file, seq);
  }

  /**
   * The run's state: the stored spec with every event applied by the core's own fold.
   *
   * @throws IllegalArgumentException when the stored spec cannot be decoded
   * @throws dev.berth.core.lifecycle.IllegalTransitionException when the events break the lifecycle
   */
  public static RunState state(Journal.Replay replay) {
    return state(replay, List.of());
  }

  /**
   * The run's state, its spec read with the tables of every adapter whose settings it may carry.
   *
   * @throws IllegalArgumentException when the stored spec cannot be decoded
   * @throws dev.berth.core.lifecycle.IllegalTransitionException when the events break the lifecycle
   */
  public static RunState state(Journal.Replay replay, List<SettingsTable<?, ?>> adapters) {
    RunState state = new RunState(SpecCodec.decode(replay.run().specJson(), adapters));
    replay.applyTo(state);
    return state;
  }

  @Override
  public void close() {
    Database.close(connection);
  }
}

package dev.berth.journal;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.Revision;
import dev.berth.core.report.RunStatus;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@link Journal} in one SQLite file (WAL mode, foreign keys on). Buffered writes go to the file
 * in one transaction per flush; other processes read the file at the same time with
 * {@link JournalReader}. SQLite runs with {@code synchronous=NORMAL} and the journal syncs the
 * write-ahead log itself ({@link WalSync}): before {@link #flush()} returns, or in the background
 * for {@link #flush(Runnable)}; with {@link Durability#NORMAL} it never syncs.
 *
 * <p>One writer: the caller makes sure no second process writes the same file (Berth's run lock
 * does). Not thread-safe: one thread writes.
 */
public final class SqliteJournal implements Journal {

  private final Path file;
  private final Connection connection;
  private final Writes writes;
  private final CommitMark mark;
  private final WalSync sync;
  private final List<Writes.Write> buffer = new ArrayList<>();
  private long nextSeq;
  private boolean started;
  private boolean closed;

  private SqliteJournal(Path file, Connection connection, Durability durability) throws JournalException {
    this.file = file;
    this.connection = connection;
    this.mark = CommitMark.writerFor(file);
    this.sync = new WalSync(file, mark, durability == Durability.FULL);
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM run), (SELECT coalesce(max(seq), 0) FROM event)")) {
      rs.next();
      started = rs.getInt(1) > 0;
      nextSeq = rs.getLong(2) + 1;
      writes = new Writes(connection);
    } catch (SQLException e) {
      Database.close(connection);
      throw Database.problem(file, e);
    }
  }

  /**
   * Loads SQLite's native library and driver now, on the calling thread, as the first journal
   * opened would: a thread that starts early keeps that work off the path to a run's first task.
   * Best effort: a failure here is met again, and reported, where a journal is opened.
   */
  public static void prepare() {
    Database.prepare();
  }

  /** Creates a journal in a new file (and its folder), durable to {@link Durability#FULL}. */
  public static SqliteJournal create(Path db) throws JournalException {
    return create(db, Durability.FULL);
  }

  /**
   * Creates a journal in a new file (and its folder).
   *
   * @throws JournalException when the file exists or cannot be created
   */
  public static SqliteJournal create(Path db, Durability durability) throws JournalException {
    try {
      CommitMark.remove(db);
    } catch (IOException e) {
      throw new JournalException(db, "cannot remove the commit mark of an earlier journal: " + e.getMessage(), e);
    }
    return new SqliteJournal(db, Database.create(db), durability);
  }

  /** Opens an existing journal to resume its run, durable to {@link Durability#FULL}. */
  public static SqliteJournal open(Path db) throws JournalException {
    return open(db, Durability.FULL);
  }

  /**
   * Opens an existing journal to resume its run, after checking the whole file.
   *
   * @throws JournalException when the file is missing, not a SQLite database, corrupt or truncated,
   *     another program's database, of a newer schema version, or when it ends before the last
   *     event its {@link CommitMark commit mark} says was committed (a write-ahead log cut short or lost)
   */
  public static SqliteJournal open(Path db, Durability durability) throws JournalException {
    Connection c = Database.open(db, false);
    try {
      Database.quickCheck(c, db);
    } catch (JournalException e) {
      Database.close(c);
      throw e;
    }
    SqliteJournal journal = new SqliteJournal(db, c, durability);
    OptionalLong committed = CommitMark.read(db);
    if (committed.isPresent() && committed.getAsLong() > journal.nextSeq - 1) {
      journal.abandon();
      throw JournalException.missingCommits(db, "the journal ends at event " + (journal.nextSeq - 1)
          + " but event " + committed.getAsLong() + " was committed: its write-ahead log (" + db.getFileName()
          + "-wal) is missing or damaged, and resuming would run finished tasks again; restore the journal's files,"
          + " or start the run over");
    }
    return journal;
  }

  /**
   * The files that belong with a journal file: SQLite's write-ahead log and shared memory, and the
   * {@link CommitMark commit mark}. They move with it, and they show a run was kept there.
   */
  public static List<Path> sideFiles(Path db) {
    return List.of(db.resolveSibling(db.getFileName() + "-wal"), db.resolveSibling(db.getFileName() + "-shm"),
        CommitMark.of(db));
  }

  /** The journal file. */
  public Path file() {
    return file;
  }

  @Override
  public void start(String runName, String specJson, Instant startedAt) throws JournalException {
    open();
    if (started) {
      throw new IllegalStateException(file + " already holds a run");
    }
    commit(List.of(), Writes.start(RunInfo.started(runName, specJson, startedAt)));
    durableNow();
    started = true;
  }

  @Override
  public void append(TaskId task, TaskEvent event) {
    writable();
    Objects.requireNonNull(task, "task");
    buffer.add(new Writes.Event(task, EventCodec.type(event), EventRows.at(event.at()), EventRows.json(event)));
  }

  /**
   * {@inheritDoc}
   *
   * <p>An UPDATE of the run row's {@code spec_json} and {@code spec_sha256} in the transaction of
   * the next flush; the schema stays at version 1.
   */
  @Override
  public void updateSpec(String specJson) {
    writable();
    checkJson(specJson, "the spec");
    buffer.add(new Writes.Spec(specJson, RunInfo.sha256(specJson)));
  }

  /**
   * {@inheritDoc}
   *
   * <p>An UPDATE that clears the run row's {@code status} and {@code finished_at} in the transaction
   * of the next flush.
   */
  @Override
  public void reopenRun() {
    writable();
    buffer.add(Writes.reopen());
  }

  /**
   * Buffers a revision of the run's spec, written with the next flush (which makes the journal's
   * {@code revision} table for its first one). The caller records the new spec beside it.
   */
  public void revise(Revision revision) {
    writable();
    buffer.add(new Writes.Revised(Objects.requireNonNull(revision, "revision")));
  }

  @Override
  public void flush() throws JournalException {
    open();
    if (!buffer.isEmpty()) {
      commit(buffer, null);
    }
    durableNow();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The commit returns as SQLite hands it to the operating system; the write-ahead log is then
   * synced on the journal's sync thread ({@code berth-journal-sync}), which runs {@code whenDurable}.
   */
  @Override
  public void flush(Runnable whenDurable) throws JournalException {
    open();
    reportSyncFailure();
    if (!buffer.isEmpty()) {
      commit(buffer, null);
    }
    sync.soon(nextSeq - 1, whenDurable);
  }

  @Override
  public void finish(RunStatus status, Instant finishedAt) throws JournalException {
    Journal.ending(status);
    writable();
    commit(buffer, Writes.finish(status, finishedAt));
    durableNow();
  }

  @Override
  public Optional<Replay> replay() throws JournalException {
    open();
    return Reads.replay(connection, file);
  }

  @Override
  public void close() throws JournalException {
    if (closed) {
      return;
    }
    try {
      if (started) {
        flush();
      }
    } finally {
      closed = true;
      sync.drain();
      writes.close();
      mark.close();
      closeConnection();
      sync.close();
    }
  }

  /**
   * Closes SQLite's connection, unless the journal's shared memory can no longer be written: the
   * last connection's close checkpoints, which writes that mapped file, and a write to a mapped page
   * of a file made immutable kills the process with SIGBUS before Berth can say a word. Such a
   * connection is left for the process's end to drop; its write-ahead log stays for the resume.
   */
  private void closeConnection() {
    if (Database.sharedMemoryWritable(file)) {
      Database.close(connection);
    }
  }

  /** The connection, for tests that look at its settings. */
  Connection connection() {
    return connection;
  }

  /** Drops what is buffered and closes, as if the process died here: for a journal refused on opening, and tests of recovery. */
  void abandon() {
    buffer.clear();
    closed = true;
    sync.drain();
    writes.close();
    mark.close();
    closeConnection();
    sync.close();
  }

  /** Writes {@code pending} (cleared on success) and then {@code last}, if any, in one transaction. */
  private void commit(List<Writes.Write> pending, Writes.Write last) throws JournalException {
    List<Writes.Write> all = new ArrayList<>(pending);
    if (last != null) {
      all.add(last);
    }
    Database.checkSharedMemoryWritable(file);
    try {
      nextSeq = writes.commit(all, nextSeq);
      if (!pending.isEmpty()) {
        pending.clear();
      }
    } catch (SQLException e) {
      throw Database.problem(file, e);
    }
  }

  /** Makes every commit so far durable (and marked) before returning. */
  private void durableNow() throws JournalException {
    reportSyncFailure();
    try {
      sync.now(nextSeq - 1);
    } catch (IOException e) {
      throw new JournalException(file, "cannot sync its write-ahead log: " + e.getMessage(), e);
    }
  }

  private void reportSyncFailure() throws JournalException {
    IOException failed = sync.takeFailure();
    if (failed != null) {
      throw new JournalException(file, "cannot sync its write-ahead log: " + failed.getMessage(), failed);
    }
  }

  private void writable() {
    open();
    if (!started) {
      throw new IllegalStateException(file + ": start the run before writing to its journal");
    }
  }

  private void open() {
    if (closed) {
      throw new IllegalStateException(file + " is closed");
    }
  }

  private static void checkJson(String json, String what) {
    Objects.requireNonNull(json, what);
    try {
      CanonicalJson.parse(json);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + " is " + e.getMessage(), e);
    }
  }
}

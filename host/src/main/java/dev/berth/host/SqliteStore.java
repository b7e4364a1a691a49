package dev.berth.host;

import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import dev.berth.spi.SharedReservationsException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.sqlite.SQLiteConfig;

/**
 * The ledger's rows in the host's SQLite file. Each transaction begins {@code IMMEDIATE}, so two
 * runs never both read the same free memory and then both take it; WAL mode lets readers go on
 * while one writes. Every change to a run's rows is guarded by the caller's uid in SQL.
 */
final class SqliteStore implements LedgerStore {

  private static final int BUSY_TIMEOUT_MILLIS = 10_000;
  /** The marker beside the ledger that says a ledger was made in its folder before. */
  static final String MADE = ".ledger-made";

  private final Path file;
  /** The file's identity (device and inode) when it was opened, to tell when its path names another. */
  private final Object fileKey;
  private final Connection connection;
  /** Statements prepared once per connection: preparing each again was a good part of a ledger step. */
  private final Map<String, PreparedStatement> prepared = new HashMap<>();

  private SqliteStore(Path file, Connection connection) {
    this.file = file;
    this.connection = connection;
    this.fileKey = fileKey(file);
  }

  /** The identity of the file at {@code file} now; null when there is none or the file system has no such thing. */
  private static Object fileKey(Path file) {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
    } catch (IOException e) {
      return null;
    }
  }

  /** One stat of the path: cheap enough for every look. */
  @Override
  public boolean replaced() {
    return fileKey != null && !fileKey.equals(fileKey(file));
  }

  @Override
  public LedgerStore reopened() {
    try {
      HostLedgers.makeFolder(file.getParent());
      createIfMissing(file);
    } catch (IOException e) {
      throw new SharedReservationsException(file + ": the host ledger cannot be made again: " + e.getMessage(), e);
    }
    return open(file);
  }

  /** Opens (creating when needed) the ledger file, in WAL mode, with its tables. */
  static SqliteStore open(Path file) {
    SQLiteConfig config = new SQLiteConfig();
    config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    // The ledger reads no generated keys: left on, the driver prepares and runs a query of its own
    // after every INSERT, a good part of a claim's time.
    config.setGetGeneratedKeys(false);
    try {
      Connection c = config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
      SqliteStore store = new SqliteStore(file, c);
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA journal_mode = WAL");
      }
      store.transaction(t -> {
        SqliteTables.createTables(c);
        return null;
      });
      return store;
    } catch (SQLException e) {
      throw problem(file, e);
    }
  }

  /**
   * Makes the ledger file when there is none, whole: made beside it in WAL mode with its tables and
   * readable and writable by every local user, then linked into place, so no other run or reader
   * ever opens an empty file whose journal mode two connections would race to change (SQLite then
   * refuses one of them as busy). When another run made it first, its file is kept.
   *
   * <p>A file made where the {@link #MADE} marker says a ledger was made before replaces a removed
   * one, and says so from its first instant ({@link Tables#remade}): the runs that held there have
   * not published their holds in it yet. The marker is left beside the ledger, and its name does not
   * begin with the ledger's, so {@code rm ledger.db*} leaves it.
   */
  static void createIfMissing(Path file) throws IOException {
    Path made = file.resolveSibling(MADE);
    if (!Files.exists(file)) {
      make(file, Files.exists(made));
    }
    if (!Files.exists(made)) {
      try {
        Files.writeString(made, "A Berth host ledger was made in this folder: one made here again waits for the"
            + " runs to publish what they hold before it takes claims.\n", StandardOpenOption.CREATE_NEW);
      } catch (FileAlreadyExistsException raced) {
        // another run made it at the same time
      }
    }
  }

  private static void make(Path file, boolean remade) throws IOException {
    Path fresh = Files.createTempFile(file.getParent(), file.getFileName() + ".", ".new");
    try {
      try (SqliteStore store = open(fresh)) { // the last connection folds the write-ahead log back into the file
        if (remade) {
          store.markRemade();
        }
      }
      Files.setPosixFilePermissions(fresh, PosixFilePermissions.fromString("rw-rw-rw-"));
      try {
        Files.createLink(file, fresh);
      } catch (FileAlreadyExistsException raced) {
        // another run made it at the same time
      } catch (IOException | UnsupportedOperationException noLinks) {
        try {
          Files.move(fresh, file);
        } catch (FileAlreadyExistsException raced) {
          // another run made it at the same time
        }
      }
    } finally {
      for (String suffix : List.of("", "-wal", "-shm")) {
        Files.deleteIfExists(fresh.resolveSibling(fresh.getFileName() + suffix));
      }
    }
  }

  /** Marks a file made in place of a removed ledger, before anyone else can open it. */
  private void markRemade() {
    try (Statement s = connection.createStatement()) {
      s.execute("INSERT INTO remade VALUES (NULL)");
    } catch (SQLException e) {
      throw problem(file, e);
    }
  }

  @Override
  public synchronized <T> T transaction(Function<Tables, T> work) {
    try {
      prepared("BEGIN IMMEDIATE").execute();
      try {
        T result = work.apply(new SqliteTables(this::prepared));
        prepared("COMMIT").execute();
        return result;
      } catch (RuntimeException | Error e) {
        prepared("ROLLBACK").execute();
        throw e;
      }
    } catch (SQLException e) {
      forgetPrepared();
      throw problem(file, e);
    } catch (SqliteTables.Failure e) {
      forgetPrepared();
      throw problem(file, e.getCause());
    }
  }

  /** {@code sql} prepared on this connection, its parameters cleared; prepared the first time only. */
  private PreparedStatement prepared(String sql) throws SQLException {
    PreparedStatement ps = prepared.get(sql);
    if (ps == null) {
      ps = connection.prepareStatement(sql);
      prepared.put(sql, ps);
    } else {
      ps.clearParameters();
    }
    return ps;
  }

  /** After a failure, statements are prepared afresh: none is left in whatever state the failure left it. */
  private void forgetPrepared() {
    for (PreparedStatement ps : prepared.values()) {
      try {
        ps.close();
      } catch (SQLException e) {
        // closing is best effort
      }
    }
    prepared.clear();
  }

  @Override
  public String where() {
    return file.toString();
  }

  @Override
  public synchronized void close() {
    forgetPrepared();
    try {
      connection.close();
    } catch (SQLException e) {
      // closing is best effort; what was committed stays
    }
  }

  static SharedReservationsException problem(Path file, SQLException e) {
    return new SharedReservationsException(file + ": the host ledger cannot be used (SQLite: " + e.getMessage() + ")", e);
  }

  /** The tables of one transaction. */
  private static final class SqliteTables implements Tables {

    /** A SQL failure inside a transaction, carried out of the rules to be rolled back. */
    static final class Failure extends RuntimeException {
      private static final long serialVersionUID = 1L;

      Failure(SQLException cause) {
        super(cause);
      }

      @Override
      public synchronized SQLException getCause() {
        return (SQLException) super.getCause();
      }
    }

    /** Prepares a statement, or gives the one prepared before. */
    interface Statements {
      PreparedStatement prepared(String sql) throws SQLException;
    }

    private final Statements statements;

    SqliteTables(Statements statements) {
      this.statements = statements;
    }

    static void createTables(Connection c) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE IF NOT EXISTS runs (id TEXT PRIMARY KEY, host TEXT NOT NULL, name TEXT NOT NULL,"
            + " workdir TEXT NOT NULL, uid INTEGER NOT NULL, user TEXT NOT NULL, pid INTEGER NOT NULL,"
            + " pid_start INTEGER NOT NULL, state TEXT NOT NULL, running INTEGER, waiting INTEGER, done INTEGER,"
            + " total INTEGER, started_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, ended_at INTEGER)");
        s.execute("CREATE TABLE IF NOT EXISTS holds (run TEXT NOT NULL, task TEXT NOT NULL, key TEXT NOT NULL,"
            + " label TEXT NOT NULL, bytes INTEGER NOT NULL, measured INTEGER NOT NULL, milli_cpus INTEGER NOT NULL,"
            + " since INTEGER NOT NULL, PRIMARY KEY (run, task, key))");
        s.execute("CREATE TABLE IF NOT EXISTS waits (run TEXT NOT NULL, task TEXT NOT NULL, priority INTEGER NOT NULL,"
            + " since INTEGER NOT NULL, milli_cpus INTEGER NOT NULL, host_memory INTEGER NOT NULL,"
            + " gpu_memory INTEGER NOT NULL, gpus INTEGER NOT NULL, devices TEXT NOT NULL, PRIMARY KEY (run, task))");
        s.execute("CREATE TABLE IF NOT EXISTS usage (user TEXT NOT NULL, at INTEGER NOT NULL, amount REAL NOT NULL)");
        s.execute("CREATE INDEX IF NOT EXISTS usage_by_time ON usage (at)");
        // A table of its own rather than a column of runs: a Berth of an earlier release that shares
        // the file writes its run rows as it always did.
        s.execute("CREATE TABLE IF NOT EXISTS tasks_since (run TEXT PRIMARY KEY, ticks INTEGER NOT NULL)");
        // One row when the file was made in place of a removed one; its time once a run first asks.
        s.execute("CREATE TABLE IF NOT EXISTS remade (at INTEGER)");
      } catch (SQLException e) {
        throw new Failure(e);
      }
    }

    // Whole constants: a statement is found again by its text, which a concatenation at each call
    // would make anew, to be hashed and compared in full.
    // (A concatenation of constants is itself one.)
    private static final String SELECT_RUNS = "SELECT id, host, name, workdir, uid, user, pid, pid_start, state,"
        + " running, waiting, done, total, started_at, updated_at, ended_at, COALESCE(ticks, pid_start)"
        + " FROM runs LEFT JOIN tasks_since ON tasks_since.run = runs.id";
    private static final String RUNS = SELECT_RUNS + " ORDER BY started_at, id";
    private static final String LIVE_RUNS = SELECT_RUNS + " WHERE ended_at IS NULL ORDER BY started_at, id";

    @Override
    public List<RunRow> runs() {
      return query(RUNS, List.of(), SqliteTables::run);
    }

    @Override
    public List<RunRow> liveRuns() {
      return query(LIVE_RUNS, List.of(), SqliteTables::run);
    }

    private static RunRow run(ResultSet rs) throws SQLException {
      return new RunRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5),
          rs.getString(6), rs.getLong(7), rs.getLong(8), rs.getString(9), rs.getInt(10), rs.getInt(11), rs.getInt(12),
          rs.getInt(13), Instant.ofEpochMilli(rs.getLong(14)), Instant.ofEpochMilli(rs.getLong(15)),
          rs.getObject(16) == null ? null : Instant.ofEpochMilli(rs.getLong(16)), rs.getLong(17));
    }

    @Override
    public List<HoldRow> holds() {
      return query("SELECT run, task, key, label, bytes, measured, milli_cpus, since FROM holds ORDER BY run, task, key",
          List.of(), rs -> new HoldRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
              rs.getLong(5), rs.getLong(6), rs.getLong(7), Instant.ofEpochMilli(rs.getLong(8))));
    }

    @Override
    public List<WaitRow> waits() {
      return query("SELECT run, task, priority, since, milli_cpus, host_memory, gpu_memory, gpus, devices FROM waits"
          + " ORDER BY run, task", List.of(), rs -> new WaitRow(rs.getString(1), rs.getString(2), rs.getInt(3),
              Instant.ofEpochMilli(rs.getLong(4)), rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getInt(8),
              ShareText.decode(rs.getString(9))));
    }

    @Override
    public Map<String, Double> usageSince(Instant since) {
      Map<String, Double> byUser = new TreeMap<>();
      query("SELECT user, SUM(amount) FROM usage WHERE at >= ? GROUP BY user", List.of(since.toEpochMilli()),
          rs -> byUser.put(rs.getString(1), rs.getDouble(2)));
      return byUser;
    }

    @Override
    public boolean putRun(RunRow r, long uid) {
      List<Long> owner = query("SELECT uid FROM runs WHERE id = ? AND ended_at IS NULL", List.of(r.id()),
          rs -> rs.getLong(1));
      if (!owner.isEmpty() && owner.get(0) != uid) {
        return false;
      }
      update("DELETE FROM holds WHERE run = ?", r.id());
      update("DELETE FROM waits WHERE run = ?", r.id());
      insertRun("INSERT OR REPLACE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)", r, uid);
      return true;
    }

    /** Writes a live run's row, as the caller's uid's. */
    private void insertRun(String sql, RunRow r, long uid) {
      update(sql, r.id(), r.host(), r.name(), r.workdir(), uid, r.user(), r.pid(), r.pidStart(), r.state(), r.running(),
          r.waiting(), r.done(), r.total(), r.startedAt().toEpochMilli(), r.updatedAt().toEpochMilli());
      if (r.tasksSince() != r.pidStart()) {
        update("INSERT OR REPLACE INTO tasks_since VALUES (?, ?)", r.id(), r.tasksSince());
      } else {
        update("DELETE FROM tasks_since WHERE run = ?", r.id());
      }
    }

    @Override
    public void progress(String run, long uid, String state, int running, int waiting, int done, int total,
        Instant at) {
      update("UPDATE runs SET state = ?, running = ?, waiting = ?, done = ?, total = ?, updated_at = ?"
          + " WHERE id = ? AND uid = ? AND ended_at IS NULL", state, running, waiting, done, total, at.toEpochMilli(),
          run, uid);
    }

    @Override
    public void end(String run, long uid, String state, Instant at) {
      if (update("UPDATE runs SET state = ?, running = 0, waiting = 0, ended_at = ? WHERE id = ? AND uid = ?",
          state, at.toEpochMilli(), run, uid) > 0) {
        update("DELETE FROM holds WHERE run = ?", run);
        update("DELETE FROM waits WHERE run = ?", run);
      }
    }

    @Override
    public void reclaim(String run, Instant at) {
      update("UPDATE runs SET state = 'lost', running = 0, waiting = 0, ended_at = ? WHERE id = ?", at.toEpochMilli(),
          run);
      update("DELETE FROM holds WHERE run = ?", run);
      update("DELETE FROM waits WHERE run = ?", run);
    }

    @Override
    public void reclaimTask(String run, String task) {
      update("DELETE FROM holds WHERE run = ? AND task = ?", run, task);
    }

    @Override
    public void takeOver(String dead, String run, Instant at) {
      update("UPDATE holds SET run = ? WHERE run = ?", run, dead);
      update("UPDATE runs SET state = ?, running = 0, waiting = 0, ended_at = ? WHERE id = ?", RESUMED,
          at.toEpochMilli(), dead);
      update("DELETE FROM waits WHERE run = ?", dead);
    }

    @Override
    public void orphan(String run, String state, Instant at) {
      update("UPDATE runs SET state = ?, waiting = 0, updated_at = ? WHERE id = ?", state, at.toEpochMilli(), run);
      update("DELETE FROM waits WHERE run = ?", run);
    }

    @Override
    public void addHold(HoldRow h, long uid) {
      update("INSERT OR REPLACE INTO holds SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS"
          + " (SELECT 1 FROM runs WHERE id = ? AND uid = ?)", h.run(), h.task(), h.key(), h.label(), h.bytes(),
          h.measured(), h.milliCpus(), h.since().toEpochMilli(), h.run(), uid);
    }

    @Override
    public boolean removeHolds(String run, String task, long uid) {
      // The caller's run is found by its id: no scan of the day of ended runs kept for people.
      return update("DELETE FROM holds WHERE run = ? AND task = ?"
          + " AND EXISTS (SELECT 1 FROM runs WHERE id = ? AND uid = ?)", run, task, run, uid) > 0;
    }

    @Override
    public void removeHold(String run, String task, String key, long uid) {
      update("DELETE FROM holds WHERE run = ? AND task = ? AND key = ?"
          + " AND EXISTS (SELECT 1 FROM runs WHERE id = ? AND uid = ?)", run, task, key, run, uid);
    }

    @Override
    public void removeWait(String run, String task, long uid) {
      update("DELETE FROM waits WHERE run = ? AND task = ?"
          + " AND EXISTS (SELECT 1 FROM runs WHERE id = ? AND uid = ?)", run, task, run, uid);
    }

    @Override
    public void measured(String run, String task, String key, long bytes, long uid) {
      update("UPDATE holds SET measured = ? WHERE run = ? AND task = ? AND key = ?"
          + " AND run IN (SELECT id FROM runs WHERE uid = ?)", bytes, run, task, key, uid);
    }

    @Override
    public void replaceWaits(String run, List<WaitRow> rows, long uid) {
      if (query("SELECT 1 FROM runs WHERE id = ? AND uid = ?", List.of(run, uid), rs -> 1).isEmpty()) {
        return;
      }
      update("DELETE FROM waits WHERE run = ?", run);
      for (WaitRow w : rows) {
        insertWait("INSERT OR REPLACE INTO waits VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", w);
      }
    }

    private void insertWait(String sql, WaitRow w) {
      update(sql, w.run(), w.task(), w.priority(), w.since().toEpochMilli(), w.milliCpus(), w.hostMemory(),
          w.gpuMemory(), w.gpus(), ShareText.encode(w.devices()));
    }

    @Override
    public boolean carry(RunRow r, List<HoldRow> holds, List<WaitRow> waits) {
      if (!query("SELECT 1 FROM runs WHERE id = ?", List.of(r.id()), rs -> 1).isEmpty()) {
        return false;
      }
      insertRun("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)", r, r.uid());
      // OR IGNORE: no row of a run is ever without its run's row, but a carry never replaces one.
      for (HoldRow h : holds) {
        update("INSERT OR IGNORE INTO holds VALUES (?, ?, ?, ?, ?, ?, ?, ?)", h.run(), h.task(), h.key(), h.label(),
            h.bytes(), h.measured(), h.milliCpus(), h.since().toEpochMilli());
      }
      for (WaitRow w : waits) {
        insertWait("INSERT OR IGNORE INTO waits VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", w);
      }
      return true;
    }

    @Override
    public Optional<Instant> remade(Instant now) {
      List<Optional<Instant>> rows = query("SELECT at FROM remade", List.of(),
          rs -> rs.getObject(1) == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(rs.getLong(1))));
      if (rows.isEmpty()) {
        return Optional.empty();
      }
      if (rows.get(0).isPresent()) {
        return rows.get(0);
      }
      update("UPDATE remade SET at = ?", now.toEpochMilli());
      return Optional.of(now);
    }

    @Override
    public void remadeOver() {
      update("DELETE FROM remade");
    }

    @Override
    public void remadeSince(Instant at) {
      Optional<Instant> since = remade(at);
      remadeOver();
      update("INSERT INTO remade VALUES (?)", since.filter(s -> s.isBefore(at)).orElse(at).toEpochMilli());
    }

    /**
     * Adds to the user's row of that instant, when there is one: the ledger gives {@link SharedLedger}
     * whole minutes, so the table keeps a row per user and minute of the window, however many tasks
     * end, and summing it stays cheap for every claim.
     */
    @Override
    public void addUsage(String user, Instant at, double amount) {
      if (update("UPDATE usage SET amount = amount + ? WHERE at = ? AND user = ?", amount, at.toEpochMilli(), user) == 0) {
        update("INSERT INTO usage VALUES (?, ?, ?)", user, at.toEpochMilli(), amount);
      }
    }

    @Override
    public void forgetBefore(Instant before) {
      update("DELETE FROM runs WHERE ended_at IS NOT NULL AND ended_at < ?", before.toEpochMilli());
      update("DELETE FROM usage WHERE at < ?", before.toEpochMilli());
      update("DELETE FROM tasks_since WHERE run NOT IN (SELECT id FROM runs)");
    }

    private interface RowReader<T> {
      T read(ResultSet rs) throws SQLException;
    }

    private <T> List<T> query(String sql, List<Object> args, RowReader<T> reader) {
      try {
        PreparedStatement ps = statements.prepared(sql);
        for (int i = 0; i < args.size(); i++) {
          ps.setObject(i + 1, args.get(i));
        }
        List<T> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rows.add(reader.read(rs));
          }
        }
        return rows;
      } catch (SQLException e) {
        throw new Failure(e);
      }
    }

    private int update(String sql, Object... args) {
      try {
        PreparedStatement ps = statements.prepared(sql);
        for (int i = 0; i < args.length; i++) {
          ps.setObject(i + 1, args[i]);
        }
        return ps.executeUpdate();
      } catch (SQLException e) {
        throw new Failure(e);
      }
    }
  }
}

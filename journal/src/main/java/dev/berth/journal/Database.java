package dev.berth.journal;

import dev.berth.spi.JournalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteException;
import org.sqlite.SQLiteOpenMode;

/** Opening SQLite connections to journal files, and SQLite errors as {@link JournalException}s. */
final class Database {

  /** How long a connection waits for another one's lock before it gives up. */
  private static final int BUSY_TIMEOUT_MILLIS = 10_000;

  /** The endings of the files SQLite keeps for a database in WAL mode: the database, its log, its shared memory. */
  private static final List<String> SUFFIXES = List.of("", "-wal", "-shm");

  private Database() {}

  /**
   * A writing connection to a file that does not exist yet; creates the file and the schema. The
   * schema is made in a sibling file that is then renamed into place, so a journal file always holds
   * Berth's tables: a scheduler killed while creating it leaves no journal (at most the sibling,
   * which the next create replaces), never an empty database.
   */
  static Connection create(Path file) throws JournalException {
    if (Files.exists(file)) {
      throw new JournalException(file, "already exists; open it to resume its run, or remove it");
    }
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
    } catch (IOException e) {
      throw new JournalException(file, "cannot create its folder: " + e.getMessage(), e);
    }
    Path fresh = file.resolveSibling(file.getFileName() + ".new");
    try {
      for (String suffix : SUFFIXES) {
        Files.deleteIfExists(fresh.resolveSibling(fresh.getFileName() + suffix));
      }
    } catch (IOException e) {
      throw new JournalException(file, "cannot remove an unfinished earlier journal: " + e.getMessage(), e);
    }
    Connection c = connect(fresh, false, true);
    try {
      Schema.givePagesBack(c);
      walMode(c);
      Schema.create(c);
    } catch (SQLException e) {
      close(c);
      throw problem(file, e);
    }
    close(c); // the last connection takes the write-ahead log back into the file
    try {
      Files.move(fresh, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new JournalException(file, "cannot create: " + e.getMessage(), e);
    }
    return open(file, false);
  }

  /** A connection to an existing journal, after checking that it is one. */
  static Connection open(Path file, boolean readOnly) throws JournalException {
    if (!Files.exists(file)) {
      throw new JournalException(file, "no such file");
    }
    if (!Files.isRegularFile(file)) {
      throw new JournalException(file, "not a file");
    }
    try {
      if (Files.size(file) == 0) {
        throw new JournalException(file, "not a Berth journal: the file is empty");
      }
    } catch (IOException e) {
      throw new JournalException(file, "cannot read: " + e.getMessage(), e);
    }
    if (readOnly) {
      checkReadable(file);
    } else {
      checkWritable(file);
    }
    Connection c = connect(file, readOnly, false);
    try {
      Schema.check(c, file);
      if (!readOnly) {
        walMode(c);
        Schema.raise(c);
      }
      return c;
    } catch (SQLException e) {
      close(c);
      throw problem(file, e);
    } catch (JournalException e) {
      close(c);
      throw e;
    }
  }

  /**
   * Fails, naming the file, unless the journal's database, write-ahead log and shared memory (those
   * that exist) can all be written: a writer asks before it opens the journal.
   */
  static void checkWritable(Path file) throws JournalException {
    for (String suffix : SUFFIXES) {
      requireWritable(file.resolveSibling(file.getFileName() + suffix));
    }
  }

  /**
   * Fails, naming it, unless the journal's shared memory (if it exists) can be written: a writer asks
   * before each commit. SQLite maps that file, and a write to a mapped page of a file that became
   * immutable kills the whole process with SIGBUS, with no word said; the database and its log are
   * written through calls that fail with an error Berth reports, so they need no look on every commit.
   */
  static void checkSharedMemoryWritable(Path file) throws JournalException {
    requireWritable(sharedMemory(file));
  }

  /** Whether the journal's shared memory can be written, or does not exist. */
  static boolean sharedMemoryWritable(Path file) {
    Path shm = sharedMemory(file);
    return Files.isWritable(shm) || !Files.exists(shm);
  }

  private static Path sharedMemory(Path file) {
    return file.resolveSibling(file.getFileName() + "-shm");
  }

  private static void requireWritable(Path f) throws JournalException {
    if (!Files.isWritable(f) && Files.exists(f)) {
      throw JournalException.unwritable(f, "cannot be written (read-only, immutable or another user's), so the"
          + " journal cannot go on; make it writable again, then resume the run");
    }
  }

  /**
   * Fails, naming the file, when the journal's shared memory is this user's (or the reader is root)
   * and cannot be written: SQLite, reading a journal in WAL mode, maps it and dies of SIGBUS on an
   * immutable one. Another user's, which only its owner may write, SQLite maps read-only as before.
   */
  private static void checkReadable(Path file) throws JournalException {
    Path shm = sharedMemory(file);
    try {
      if (!Files.isWritable(shm) && Files.exists(shm)) {
        String me = System.getProperty("user.name");
        if (me.equals("root") || Files.getOwner(shm).getName().equals(me)) {
          throw JournalException.unwritable(shm, "cannot be written (read-only or immutable), so SQLite cannot read the"
              + " journal safely; make it writable again");
        }
      }
    } catch (IOException e) {
      // its owner cannot be told: SQLite meets the file as before
    }
  }

  /** Fails unless SQLite's quick check finds the file intact; reads every page. */
  static void quickCheck(Connection c, Path file) throws JournalException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA quick_check")) {
      String first = rs.next() ? rs.getString(1) : "no answer";
      if (!"ok".equals(first)) {
        throw new JournalException(file, "the database is corrupt or truncated (SQLite: " + first + ")");
      }
    } catch (SQLException e) {
      throw problem(file, e);
    }
  }

  /** Switches to WAL mode (a no-op for a journal, whose file remembers it). */
  private static void walMode(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA journal_mode = WAL")) {
      if (!rs.next() || !"wal".equalsIgnoreCase(rs.getString(1))) {
        throw new SQLException("the file system does not allow SQLite's WAL mode");
      }
    }
  }

  /** Loads the native library and the driver's classes, by opening and closing a connection to an in-memory database. */
  static void prepare() {
    SqliteNativeLibrary.prepare();
    try (Connection c = new SQLiteConfig().createConnection("jdbc:sqlite::memory:")) {
      c.getAutoCommit();
    } catch (SQLException | RuntimeException | LinkageError e) {
      // met again where a journal is opened, and reported there
    }
  }

  private static Connection connect(Path file, boolean readOnly, boolean create)
      throws JournalException {
    SqliteNativeLibrary.prepare();
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(readOnly);
    if (!create) {
      config.resetOpenMode(SQLiteOpenMode.CREATE);
    }
    config.enforceForeignKeys(true);
    config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
    // Nothing reads generated keys; with them on, the driver matches every statement against a
    // pattern and follows each insert with a query of its own.
    config.setGetGeneratedKeys(false);
    if (!readOnly) {
      // The journal syncs its write-ahead log itself (WalSync), as FULL would after each commit.
      config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    }
    try {
      return config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
    } catch (SQLException e) {
      throw problem(file, e);
    }
  }

  /** The SQLite error as a one-line problem with {@code file}. */
  static JournalException problem(Path file, SQLException e) {
    int code = (e instanceof SQLiteException s ? s.getResultCode().code : e.getErrorCode()) & 0xff;
    String detail = " (SQLite: " + sqliteMessage(e) + ")";
    String problem = switch (code) {
      case 26 -> "not a Berth journal: not a SQLite database (or an encrypted or corrupt one)";
      case 11 -> "the database is corrupt or truncated" + detail;
      case 13 -> "the disk is full" + detail;
      case 14 -> "cannot open the file" + detail;
      case 8 -> "the file is read-only" + detail;
      case 5, 6 -> "the database is locked by another process" + detail;
      case 10 -> "I/O error" + detail;
      default -> "SQLite error" + detail;
    };
    return new JournalException(file, problem, e);
  }

  /** SQLite's own words: the driver writes them in the last parentheses of its message. */
  private static String sqliteMessage(SQLException e) {
    String m = e.getMessage() == null ? "no message" : e.getMessage().strip();
    int open = m.lastIndexOf('(');
    return open >= 0 && m.endsWith(")") ? m.substring(open + 1, m.length() - 1) : m;
  }

  /** Closes without throwing; for connections that are already failing. */
  static void close(Connection c) {
    try {
      c.close();
    } catch (SQLException ignored) {
      // the original problem is the one worth reporting
    }
  }
}

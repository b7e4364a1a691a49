package dev.berth.journal;

import dev.berth.spi.JournalException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The journal's tables and the check that a file holds them in a version this code understands.
 * One journal file holds one run.
 */
final class Schema {

  /**
   * The version this code writes. Version 2 has version 1's tables; its specs may write a group's
   * tasks as changes ({@link TaskChanges}), which a Berth that reads version 1 only cannot read.
   * Version 3 adds the {@code at} column of events, whose rows it writes as {@link EventRows} says.
   * Version 4 makes new files without the {@code result} and {@code item} tables, which nothing
   * wrote; its number rose so that a Berth that reads version 3 only refuses such a file by its
   * version instead of calling it damaged. Older files keep theirs, rows and all, and are read and
   * resumed as if they had none.
   */
  static final int VERSION = 4;

  /**
   * The revisions of a run's spec ({@link dev.berth.core.report.Revision}), made in the transaction
   * that writes a journal's first one: a journal whose run never changed its spec has no such table,
   * as before. Its number did not rise: a Berth that does not know the table ignores it, as it does
   * any table it does not read, and resumes the run.
   */
  static final String REVISION_TABLE = """
      CREATE TABLE IF NOT EXISTS revision (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        added INTEGER NOT NULL,
        removed INTEGER NOT NULL,
        changed INTEGER NOT NULL,
        summary TEXT NOT NULL
      ) STRICT""";

  /** The oldest version this code reads, and resumes after raising the file to {@link #VERSION}. */
  static final int OLDEST = 1;

  /** SQLite's {@code application_id} of a Berth journal: "BRTH" in ASCII. */
  static final int APPLICATION_ID = 0x42525448;

  /** The tables every version has; older files may hold more, which are ignored. */
  private static final List<String> TABLES = List.of("berth_schema", "run", "event");

  private static final List<String> DDL = List.of(
      "CREATE TABLE berth_schema (version INTEGER NOT NULL) STRICT",
      "INSERT INTO berth_schema (version) VALUES (" + VERSION + ")",
      """
      CREATE TABLE run (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        name TEXT NOT NULL,
        spec_json TEXT NOT NULL,
        spec_sha256 TEXT NOT NULL CHECK (length(spec_sha256) = 64),
        started_at TEXT NOT NULL,
        status TEXT CHECK (status IN ('SUCCEEDED', 'FAILED', 'CANCELLED')),
        finished_at TEXT,
        CHECK ((status IS NULL) = (finished_at IS NULL))
      ) STRICT""",
      """
      CREATE TABLE event (
        seq INTEGER PRIMARY KEY CHECK (seq >= 1),
        run_id INTEGER NOT NULL REFERENCES run (id),
        task TEXT NOT NULL,
        type TEXT NOT NULL,
        json TEXT NOT NULL,
        at INTEGER
      ) STRICT""",
      "PRAGMA application_id = " + APPLICATION_ID);

  private Schema() {}

  /**
   * Makes a new, empty file give back the pages a rewritten row freed when asked ({@link Writes}):
   * the run's row holds the spec, which the run's end rewrites. Before anything else is written.
   */
  static void givePagesBack(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("PRAGMA auto_vacuum = INCREMENTAL");
    }
  }

  /** Creates the tables in one transaction. */
  static void create(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
      try {
        for (String sql : DDL) {
          s.execute(sql);
        }
        s.execute("COMMIT");
      } catch (SQLException e) {
        s.execute("ROLLBACK");
        throw e;
      }
    }
  }

  /**
   * Raises an older journal that is about to be written to this version, so that a Berth that reads
   * only the older one refuses it by its version instead of failing on a spec it cannot read.
   */
  static void raise(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
      try {
        if (!eventsHaveInstants(c)) {
          s.execute("ALTER TABLE event ADD COLUMN at INTEGER"); // older rows keep their instant in their text
        }
        s.executeUpdate("UPDATE berth_schema SET version = " + VERSION + " WHERE version < " + VERSION);
        s.execute("COMMIT");
      } catch (SQLException e) {
        s.execute("ROLLBACK");
        throw e;
      }
    }
  }

  /** Whether the journal holds the {@code revision} table: only one whose run changed its spec does. */
  static boolean hasRevisions(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'revision'")) {
      return rs.next();
    }
  }

  /** Whether the event table has version 3's {@code at} column (a journal opened to read may be older). */
  static boolean eventsHaveInstants(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA table_info(event)")) {
      while (rs.next()) {
        if (rs.getString("name").equals("at")) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * Checks that the file is a Berth journal of a version this code reads.
   *
   * @throws JournalException naming the problem: another program's database, a newer or unknown version
   */
  static void check(Connection c, Path file) throws JournalException, SQLException {
    try (Statement s = c.createStatement()) {
      int applicationId;
      try (ResultSet rs = s.executeQuery("PRAGMA application_id")) {
        applicationId = rs.next() ? rs.getInt(1) : 0;
      }
      Set<String> tables = new TreeSet<>();
      try (ResultSet rs = s.executeQuery("SELECT name FROM sqlite_schema WHERE type = 'table'")) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      if ((applicationId != 0 && applicationId != APPLICATION_ID) || !tables.contains("berth_schema")) {
        throw new JournalException(file, "not a Berth journal: "
            + (tables.isEmpty() ? "an empty SQLite database" : "a SQLite database without Berth's tables "
            + "(another program's?)"));
      }
      List<Integer> versions = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT version FROM berth_schema")) {
        while (rs.next()) {
          versions.add(rs.getInt(1));
        }
      }
      if (versions.size() != 1) {
        throw new JournalException(file, "damaged Berth journal: " + versions.size()
            + " schema versions recorded instead of one");
      }
      int version = versions.get(0);
      if (version > VERSION) {
        throw new JournalException(file, "journal schema version " + version + " is newer than this Berth reads ("
            + VERSION + "); use the Berth that wrote it or a newer one");
      }
      if (version < OLDEST) {
        throw new JournalException(file, "unknown journal schema version " + version + " (this Berth reads "
            + OLDEST + " to " + VERSION + ")");
      }
      for (String table : TABLES) {
        if (!tables.contains(table)) {
          throw new JournalException(file, "damaged Berth journal: table " + table + " is missing");
        }
      }
    }
  }
}

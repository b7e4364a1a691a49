package dev.berth.journal;

import dev.berth.core.model.TaskId;
import dev.berth.core.report.Revision;
import dev.berth.core.report.RunStatus;
import dev.berth.spi.Journal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;

/**
 * The writer's prepared statements and the one transaction a flush is. Events are numbered here,
 * in the order they were appended, continuing after the last stored one.
 */
final class Writes implements AutoCloseable {

  /** One buffered write. */
  sealed interface Write permits Event, Run, Spec, Revised {}

  /** An event, already encoded as {@link EventRows} says. */
  record Event(TaskId task, String type, long at, String json) implements Write {

    /** Whether it only releases its task, which a row may do for several tasks at once. */
    boolean releasesOnly() {
      return type.equals("released") && json.equals("{}");
    }
  }

  /** A new spec for the run: its text and SHA-256 replace the stored ones. */
  record Spec(String json, String sha256) implements Write {}

  /** A revision of the run's spec, added to the {@code revision} table (made by the first one). */
  record Revised(Revision revision) implements Write {}

  /** The run row: inserted when {@code info} is set, else its end is updated (cleared when {@code status} is null). */
  record Run(Journal.RunInfo info, RunStatus status, Instant finishedAt) implements Write {}

  private final Statement plain;
  private final PreparedStatement insertEvent;
  private final PreparedStatement insertRun;
  private final PreparedStatement finishRun;
  private final PreparedStatement updateSpec;

  Writes(Connection c) throws SQLException {
    plain = c.createStatement();
    insertEvent = c.prepareStatement("INSERT INTO event (seq, run_id, task, type, at, json) VALUES (?, 1, ?, ?, ?, ?)");
    insertRun = c.prepareStatement("INSERT INTO run (id, name, spec_json, spec_sha256, started_at) VALUES (1, ?, ?, ?, ?)");
    finishRun = c.prepareStatement("UPDATE run SET status = ?, finished_at = ? WHERE id = 1");
    updateSpec = c.prepareStatement("UPDATE run SET spec_json = ?, spec_sha256 = ? WHERE id = 1");
  }

  static Write start(Journal.RunInfo info) {
    return new Run(info, null, null);
  }

  static Write finish(RunStatus status, Instant at) {
    return new Run(null, status, at);
  }

  /** The run goes on again: its end is cleared. */
  static Write reopen() {
    return new Run(null, null, null);
  }

  /** Writes everything in one transaction and returns the next free sequence number. */
  long commit(List<Write> writes, long nextSeq) throws SQLException {
    plain.execute("BEGIN IMMEDIATE");
    try {
      long seq = nextSeq;
      boolean events = false;
      for (int i = 0; i < writes.size(); i++) {
        if (writes.get(i) instanceof Event e) {
          List<String> released = releasedTogether(writes, i);
          boolean many = released.size() > 1;
          insertEvent.setLong(1, seq++);
          insertEvent.setString(2, many ? EventRows.MANY : e.task().value());
          insertEvent.setString(3, e.type());
          insertEvent.setLong(4, e.at());
          insertEvent.setString(5, many ? EventRows.released(released) : e.json());
          insertEvent.addBatch();
          events = true;
          i += Math.max(0, released.size() - 1);
        } else {
          write(writes.get(i));
        }
      }
      if (events) {
        insertEvent.executeBatch();
      }
      plain.execute("COMMIT");
      if (writes.stream().anyMatch(w -> w instanceof Run r && r.info() == null)) {
        givePagesBack();
      }
      return seq;
    } catch (SQLException | RuntimeException e) {
      insertEvent.clearBatch();
      try {
        plain.execute("ROLLBACK");
      } catch (SQLException rollback) {
        e.addSuppressed(rollback);
      }
      throw e;
    }
  }

  /**
   * The tasks of the releases from {@code first} on that happened at the same instant, next to each
   * other (a decision pass releases a whole sweep at once): one row holds them all.
   */
  private static List<String> releasedTogether(List<Write> writes, int first) {
    List<String> tasks = new java.util.ArrayList<>();
    Event head = (Event) writes.get(first);
    for (int i = first; i < writes.size() && head.releasesOnly(); i++) {
      if (!(writes.get(i) instanceof Event e) || !e.releasesOnly() || e.at() != head.at()) {
        break;
      }
      tasks.add(e.task().value());
    }
    return tasks;
  }

  /**
   * The run's row, spec included, was written again (its end, a reopen): the pages of its old copy
   * are given back, so a finished journal holds its spec once. Best effort, after the commit: what
   * was committed stays committed either way.
   */
  private void givePagesBack() {
    try {
      plain.executeUpdate("PRAGMA incremental_vacuum"); // executeUpdate steps until every free page is back
    } catch (SQLException e) {
      // the pages stay free, to be used again by later writes
    }
  }

  private void write(Write w) throws SQLException {
    if (w instanceof Revised r) {
      plain.execute(Schema.REVISION_TABLE);
      try (PreparedStatement insert = plain.getConnection().prepareStatement(
          "INSERT INTO revision (at, added, removed, changed, summary) VALUES (?, ?, ?, ?, ?)")) {
        insert.setString(1, r.revision().at().toString());
        insert.setInt(2, r.revision().added());
        insert.setInt(3, r.revision().removed());
        insert.setInt(4, r.revision().changed());
        insert.setString(5, r.revision().summary());
        insert.executeUpdate();
      }
    } else if (w instanceof Spec spec) {
      updateSpec.setString(1, spec.json());
      updateSpec.setString(2, spec.sha256());
      updateSpec.executeUpdate();
    } else if (w instanceof Run run && run.info() != null) {
      insertRun.setString(1, run.info().name());
      insertRun.setString(2, run.info().specJson());
      insertRun.setString(3, run.info().specSha256());
      insertRun.setString(4, run.info().startedAt().toString());
      insertRun.executeUpdate();
    } else if (w instanceof Run run) {
      finishRun.setString(1, run.status() == null ? null : run.status().name());
      finishRun.setString(2, run.finishedAt() == null ? null : run.finishedAt().toString());
      finishRun.executeUpdate();
    }
  }

  @Override
  public void close() {
    for (Statement s : List.of(plain, insertEvent, insertRun, finishRun, updateSpec)) {
      try {
        s.close();
      } catch (SQLException ignored) {
        // closing the connection releases it anyway
      }
    }
  }
}

package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.Revision;
import dev.berth.core.report.RunStatus;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The queries that read a journal back, shared by the writer and the read-only reader. */
final class Reads {

  private Reads() {}

  /** Everything, from one consistent snapshot; empty when no run has started. */
  static Optional<Journal.Replay> replay(Connection c, Path file) throws JournalException {
    return snapshot(c, file, () -> {
      Optional<Journal.RunInfo> run = run(c, file);
      if (run.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new Journal.Replay(run.get(), events(c, file, 0), revisions(c, file)));
    });
  }

  /** The events after {@code seq}, in order, from one snapshot. */
  static List<Journal.Entry> eventsAfter(Connection c, Path file, long seq) throws JournalException {
    return snapshot(c, file, () -> events(c, file, seq));
  }

  /** The run, if it started. */
  private static Optional<Journal.RunInfo> run(Connection c, Path file) throws SQLException, JournalException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(
            "SELECT name, spec_json, spec_sha256, started_at, status, finished_at FROM run WHERE id = 1")) {
      if (!rs.next()) {
        return Optional.empty();
      }
      try {
        String status = rs.getString(5);
        String finished = rs.getString(6);
        return Optional.of(new Journal.RunInfo(
            rs.getString(1), rs.getString(2), rs.getString(3), Instant.parse(rs.getString(4)),
            Optional.ofNullable(status).map(RunStatus::valueOf), Optional.ofNullable(finished).map(Instant::parse)));
      } catch (RuntimeException e) {
        throw new JournalException(file, "damaged Berth journal: the run cannot be read: " + e.getMessage(), e);
      }
    }
  }

  /** The revisions of the run's spec, oldest first; none in a journal without their table. */
  private static List<Revision> revisions(Connection c, Path file) throws SQLException, JournalException {
    List<Revision> revisions = new ArrayList<>();
    if (!Schema.hasRevisions(c)) {
      return revisions;
    }
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT at, added, removed, changed, summary FROM revision ORDER BY id")) {
      while (rs.next()) {
        try {
          revisions.add(new Revision(Instant.parse(rs.getString(1)), rs.getInt(2), rs.getInt(3), rs.getInt(4),
              rs.getString(5)));
        } catch (RuntimeException e) {
          throw new JournalException(file, "damaged Berth journal: a revision cannot be read: " + e.getMessage(), e);
        }
      }
    }
    return revisions;
  }

  private static List<Journal.Entry> events(Connection c, Path file, long afterSeq)
      throws SQLException, JournalException {
    List<Journal.Entry> events = new ArrayList<>();
    String at = Schema.eventsHaveInstants(c) ? "at" : "NULL";
    try (PreparedStatement s = c.prepareStatement(
        "SELECT seq, task, type, " + at + ", json FROM event WHERE seq > ? ORDER BY seq")) {
      s.setLong(1, afterSeq);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          long seq = rs.getLong(1);
          try {
            row(seq, rs.getString(2), rs.getString(3), rs.getObject(4) == null ? null : rs.getLong(4),
                rs.getString(5), events);
          } catch (RuntimeException e) {
            throw new JournalException(file, "damaged Berth journal: event " + seq + " cannot be read: "
                + e.getMessage(), e);
          }
        }
      }
    }
    return events;
  }

  /** The entries of one row: a row of version 1 or 2 (no instant column) holds the whole event in its text. */
  private static void row(long seq, String task, String type, Long at, String json, List<Journal.Entry> into) {
    if (at == null) {
      into.add(new Journal.Entry(seq, TaskId.of(task), EventCodec.decode(json)));
    } else if (task.equals(EventRows.MANY)) {
      TaskEvent released = EventRows.event(type, at, "{}");
      for (JsonNode t : CanonicalJson.parse(json).path("tasks")) {
        into.add(new Journal.Entry(seq, TaskId.of(t.asText()), released));
      }
    } else {
      into.add(new Journal.Entry(seq, TaskId.of(task), EventRows.event(type, at, json)));
    }
  }

  /** Runs reads inside one read transaction, so that they see one flush boundary. */
  private static <T> T snapshot(Connection c, Path file, Query<T> query) throws JournalException {
    try (Statement s = c.createStatement()) {
      s.execute("BEGIN");
      try {
        return query.run();
      } finally {
        s.execute("COMMIT");
      }
    } catch (SQLException e) {
      throw Database.problem(file, e);
    } catch (IllegalArgumentException e) {
      throw new JournalException(file, "damaged Berth journal: " + e.getMessage(), e);
    }
  }

  private interface Query<T> {
    T run() throws SQLException, JournalException;
  }
}

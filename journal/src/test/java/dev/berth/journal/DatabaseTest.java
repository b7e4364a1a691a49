package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConnection;

/** How the journal's connections are set up. */
class DatabaseTest {

  @TempDir Path dir;

  @Test
  void aJournalConnectionAsksTheDriverForNoGeneratedKeys() throws Exception {
    Path file = dir.resolve("journal.db");
    try (Connection created = Database.create(file)) {
      assertThat(created.unwrap(SQLiteConnection.class).getConnectionConfig().isGetGeneratedKeys()).isFalse();
    }
    try (Connection opened = Database.open(file, false)) {
      assertThat(opened.unwrap(SQLiteConnection.class).getConnectionConfig().isGetGeneratedKeys()).isFalse();
    }
  }
}

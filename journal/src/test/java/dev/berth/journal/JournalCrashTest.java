package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.spi.Journal;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Kills a writing process with SIGKILL and checks that every event it had flushed is in the journal,
 * that nothing half-written is, and that the file is intact.
 */
class JournalCrashTest {

  private static final long LINE_TIMEOUT_SECONDS = 60;
  private static final String END = "end of output";

  @TempDir Path dir;

  @ParameterizedTest(name = "{0} events per flush, killed after {1} flushes")
  @CsvSource({"1, 300", "7, 150", "100, 40"})
  void everyEventFlushedBeforeAKillIsThereAndTheFileIsIntact(int batch, int flushes) throws Exception {
    Path db = dir.resolve("journal.db");
    Process child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
        CrashingWriter.class.getName(), db.toString(), Integer.toString(batch))
        .redirectError(dir.resolve("child-stderr.txt").toFile())
        .start();
    BlockingQueue<String> lines = lines(child);
    List<Long> printed = new ArrayList<>();
    long seenWhileLive = 0;
    try {
      for (int i = 0; i < flushes; i++) {
        printed.add(Long.parseLong(next(lines, dir)));
        if (i == flushes / 2) {
          seenWhileLive = readWhileTheWriterRuns(db, printed.get(i));
        }
      }
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(LINE_TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    long lastPrinted = printed.get(printed.size() - 1);
    long seenByAReader;
    try (JournalReader reader = JournalReader.open(db)) {
      seenByAReader = reader.read().orElseThrow().lastSeq();
    }
    try (SqliteJournal reopened = SqliteJournal.open(db)) {
      assertThat(integrityCheck(reopened)).isEqualTo("ok");
      Journal.Replay replay = reopened.replay().orElseThrow();
      List<Journal.Entry> events = replay.events();
      assertThat(events.size()).isGreaterThanOrEqualTo((int) lastPrinted).isGreaterThanOrEqualTo((int) seenWhileLive);
      assertThat(events.size() % batch).as("only whole flushes").isZero();
      assertThat(seenByAReader).as("a reader first after the kill").isEqualTo(events.size());
      for (int i = 0; i < events.size(); i++) {
        long n = i + 1;
        assertThat(events.get(i)).isEqualTo(new Journal.Entry(n, CrashingWriter.task(n), CrashingWriter.event(n)));
      }
      assertThat(replay.run().specJson())
          .as("the spec written with the last flush").isEqualTo(CrashingWriter.spec(events.size()));
    }
  }

  /** A reader in this process sees at least what the writer printed, while the writer keeps going. */
  private static long readWhileTheWriterRuns(Path db, long printed) throws Exception {
    try (JournalReader reader = JournalReader.open(db)) {
      Journal.Replay replay = reader.read().orElseThrow();
      assertThat(replay.lastSeq()).isGreaterThanOrEqualTo(printed);
      return replay.lastSeq();
    }
  }

  private static String integrityCheck(SqliteJournal journal) throws Exception {
    try (Statement s = journal.connection().createStatement(); ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static BlockingQueue<String> lines(Process child) {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread pump = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          lines.add(line);
        }
      } catch (IOException killed) {
        // the stream ends when the child dies
      }
      lines.add(END);
    }, "crash-test-output");
    pump.setDaemon(true);
    pump.start();
    return lines;
  }

  private static String next(BlockingQueue<String> lines, Path dir) throws Exception {
    String line = lines.poll(LINE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    if (line == null || line.equals(END)) {
      throw new AssertionError("the writer stopped printing; its stderr: "
          + Files.readString(dir.resolve("child-stderr.txt")));
    }
    return line;
  }
}

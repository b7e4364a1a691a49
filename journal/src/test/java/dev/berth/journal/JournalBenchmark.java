package dev.berth.journal;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Measures journal throughput without a harness: appends a number of events (200,000 unless the
 * first argument says otherwise), flushing every 1, 10, 100 and 1000 events, and prints events per
 * second for each batch size, then how long reopening and replaying the biggest journal takes.
 * The second argument picks the {@link Durability} (FULL unless it says NORMAL).
 */
public final class JournalBenchmark {

  private JournalBenchmark() {}

  /** Runs the measurement; see the class comment for the arguments. */
  public static void main(String[] args) throws Exception {
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    Durability durability = args.length > 1 ? Durability.valueOf(args[1]) : Durability.FULL;
    Path dir = Files.createTempDirectory("journal-benchmark");
    try {
      run(dir.resolve("warm-up.db"), 20_000, 100, durability);
      System.out.printf(Locale.ROOT, "%d events, durability %s%n", events, durability);
      System.out.printf(Locale.ROOT, "%10s %12s %14s%n", "batch", "seconds", "events/s");
      for (int batch : List.of(1, 10, 100, 1000)) {
        double seconds = run(dir.resolve("batch-" + batch + ".db"), events, batch, durability);
        System.out.printf(Locale.ROOT, "%10d %12.2f %14.0f%n", batch, seconds, events / seconds);
      }
      long start = System.nanoTime();
      try (SqliteJournal journal = SqliteJournal.open(dir.resolve("batch-1000.db"), durability)) {
        int replayed = journal.replay().orElseThrow().events().size();
        System.out.printf(Locale.ROOT, "open (with quick check) and replay of %d events: %.2f s%n", replayed,
            (System.nanoTime() - start) / 1e9);
      }
    } finally {
      delete(dir);
    }
  }

  private static double run(Path db, int events, int batch, Durability durability) throws Exception {
    try (SqliteJournal journal = SqliteJournal.create(db, durability)) {
      journal.start("bench", "{}", Instant.now());
      long start = System.nanoTime();
      for (int n = 0; n < events; n++) {
        journal.append(TaskId.of("task-" + (n % 1000)), event(n));
        if ((n + 1) % batch == 0) {
          journal.flush();
        }
      }
      journal.flush();
      return (System.nanoTime() - start) / 1e9;
    }
  }

  /** The events of one ordinary attempt, in turn: released, launched, ended with a message, settled. */
  private static TaskEvent event(int n) {
    Instant at = Instant.ofEpochSecond(1_700_000_000L + n, n);
    return switch (n % 4) {
      case 0 -> new TaskEvent.Released(at);
      case 1 -> new TaskEvent.Launched(at, 1, new Placement("cuda:0", 2L << 30, 1000, 4L << 30), 10_000 + n, false);
      case 2 -> new TaskEvent.Ended(at, Outcome.FAILED, 1, "exit code 1: see stderr.log", TaskState.READY);
      default -> new TaskEvent.Settled(at, TaskState.CANCELLED, "cancelled by the user");
    };
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}

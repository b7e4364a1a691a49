package dev.berth.journal;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The child process of {@link JournalCrashTest}: writes a journal flat out until it is killed.
 * Event number {@code n} is {@link #event(long)}; each flush also sets the run's spec to
 * {@link #spec(long)} of the flush's last event, then the number is printed, so every printed
 * number was durable when it was printed.
 *
 * <p>Arguments: the journal file, and how many events each flush holds.
 */
public final class CrashingWriter {

  private CrashingWriter() {}

  /** The task of event number {@code n}. */
  static TaskId task(long n) {
    return TaskId.of("t" + (n % 7));
  }

  /** Event number {@code n}: its number is in its time, down to the nanosecond. */
  static TaskEvent event(long n) {
    return new TaskEvent.Released(Instant.ofEpochSecond(1_700_000_000L + n, n % 1_000_000_000));
  }

  /** The spec written with the flush whose last event is number {@code n}. */
  static String spec(long n) {
    return "{\"last\":" + n + "}";
  }

  /** Runs until killed. */
  public static void main(String[] args) throws Exception {
    int batch = Integer.parseInt(args[1]);
    try (SqliteJournal journal = SqliteJournal.create(Path.of(args[0]))) {
      journal.start("crash", "{}", Instant.EPOCH);
      for (long n = 1; ; ) {
        for (int i = 0; i < batch; i++, n++) {
          journal.append(task(n), event(n));
        }
        journal.updateSpec(spec(n - 1));
        journal.flush();
        System.out.println(n - 1);
        System.out.flush();
      }
    }
  }
}

package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.Decision;
import dev.berth.runtime.exec.Supervision;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The exit code of each attempt, written the moment the exit is seen and before the engine acts on
 * it, and the kills Berth sent, written before the signal. A scheduler that is killed after a task
 * exited but before the journal recorded it finds the exit code here when the run resumes, so a
 * task that succeeded is not run again; and an exit that followed a kill of Berth's (it stopped, or
 * cancelled the task) ends as that kill does, not as a failure of the task's own.
 *
 * <p>One file per run, {@code .berth-exits} in the run folder, a line per exit ({@code attempt},
 * {@code code} and the task's folder, tab-separated) appended with one write on a descriptor kept
 * open, so an exit costs no new file; lines from several exit threads never mix, as each is one
 * small append. Each attempt's {@linkplain Supervision supervisor} appends the same line when its
 * command ends, so the exit is marked even when no Berth is alive. A kill's line holds
 * {@code kill OUTCOME reason} in place of the code. A run an older Berth left may instead hold
 * {@code .berth-exit-N} in each task's folder, which is still read.
 */
final class ExitMarks implements AutoCloseable {

  private static final String KILL = "kill ";

  private final Path file;
  private FileChannel channel;
  private boolean failed;

  /**
   * What the marks say of one attempt.
   *
   * @param code its exit code, when one was marked
   * @param kill the kill Berth sent it before that exit (or before it was seen to end), if any
   */
  record Mark(OptionalInt code, Optional<Killed> kill) {
    static final Mark NONE = new Mark(OptionalInt.empty(), Optional.empty());

    /** The kill as the decision it was, for the task {@code id}. */
    Optional<Decision.Kill> killOf(TaskId id) {
      return kill.map(k -> new Decision.Kill(id, k.outcome(), k.reason()));
    }
  }

  /** A kill Berth sent: why, as its decision said. */
  record Killed(Outcome outcome, String reason) {}

  /** Every mark of a run's file, read at once. */
  static final class Read {
    private final Map<String, Mark> marks;

    private Read(Map<String, Mark> marks) {
      this.marks = marks;
    }

    /** What the marks (or an older Berth's file) say of the attempt. */
    Mark of(Path taskDir, int attempt) {
      Mark mark = marks.getOrDefault(key(taskDir, attempt), Mark.NONE);
      if (mark.code().isEmpty()) {
        OptionalInt legacy = legacy(taskDir, attempt);
        if (legacy.isPresent()) {
          return new Mark(legacy, mark.kill());
        }
      }
      return mark;
    }

    /**
     * The last attempt marked with an exit code in each task folder, as {@code {attempt, code}}, by
     * the folder's absolute path.
     */
    Map<String, int[]> lastExits() {
      Map<String, int[]> last = new HashMap<>();
      marks.forEach((key, mark) -> {
        if (mark.code().isEmpty()) {
          return;
        }
        int tab = key.lastIndexOf('\t');
        int attempt = Integer.parseInt(key.substring(tab + 1));
        int[] before = last.get(key.substring(0, tab));
        if (before == null || before[0] < attempt) {
          last.put(key.substring(0, tab), new int[] {attempt, mark.code().getAsInt()});
        }
      });
      return last;
    }
  }

  private ExitMarks(Path file) {
    this.file = file;
  }

  /** The marks of the run in {@code runDir}; the file is made at the first exit. */
  static ExitMarks of(Path runDir) {
    return new ExitMarks(runDir.resolve(Supervision.MARKS_FILE));
  }

  /** Marks the exit of {@code attempt} of the task whose folder is {@code taskDir}. Called from exit threads. */
  void write(Path taskDir, int attempt, int exitCode) {
    append(Supervision.markLine(attempt, Integer.toString(exitCode), taskDir));
  }

  /** Marks that Berth is about to end {@code attempt} for {@code kill}: its exit, when it comes, ends as the kill. */
  void writeKill(Path taskDir, int attempt, Decision.Kill kill) {
    String reason = kill.reason().replaceAll("[\t\r\n]", " ");
    append(Supervision.markLine(attempt, KILL + kill.outcome().name() + " " + reason, taskDir));
  }

  private synchronized void append(String text) {
    if (failed) {
      return;
    }
    try {
      if (channel == null) {
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
      }
      ByteBuffer buffer = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    } catch (IOException e) {
      failed = true; // The journal still gets the exit through the engine; the mark only matters after a crash.
    }
  }

  /**
   * Every mark in the run's file, by task folder and attempt: the first exit code marked, and a kill
   * marked before it (a kill marked after the exit came too late to end it).
   */
  Read readAll() {
    Map<String, Mark> marks = new HashMap<>();
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        String[] f = line.split("\t", 3);
        if (f.length == 3) {
          try {
            marks.compute(key(Path.of(f[2]), Integer.parseInt(f[0])), (k, mark) -> next(mark, f[1]));
          } catch (RuntimeException e) {
            // a line cut by a crash, or one this Berth does not know: the others stand
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // none yet: no marks
    }
    return new Read(marks);
  }

  private static Mark next(Mark mark, String value) {
    Mark m = mark == null ? Mark.NONE : mark;
    if (m.code().isPresent()) {
      return m;
    }
    if (value.startsWith(KILL)) {
      String[] kill = value.substring(KILL.length()).split(" ", 2);
      return new Mark(m.code(), Optional.of(new Killed(Outcome.valueOf(kill[0]), kill.length > 1 ? kill[1] : "")));
    }
    return new Mark(OptionalInt.of(Integer.parseInt(value)), m.kill());
  }

  private static OptionalInt legacy(Path taskDir, int attempt) {
    try {
      String text = Files.readString(taskDir.resolve(".berth-exit-" + attempt), StandardCharsets.UTF_8);
      return OptionalInt.of(Integer.parseInt(text.strip()));
    } catch (IOException | NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  private static String key(Path taskDir, int attempt) {
    return taskDir.toAbsolutePath().normalize() + "\t" + attempt;
  }

  @Override
  public synchronized void close() {
    failed = true;
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // every line was written already
      }
    }
  }
}

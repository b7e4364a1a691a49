package dev.berth.runtime.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The exit code of each attempt, written the moment the exit is seen and before the engine acts on
 * it. A scheduler that is killed after a task exited but before the journal recorded it finds the
 * exit code here when the run resumes, so a task that succeeded is not run again.
 *
 * <p>One file per run, {@code .berth-exits} in the run folder, a line per exit ({@code attempt},
 * {@code code} and the task's folder, tab-separated) appended with one write on a descriptor kept
 * open, so an exit costs no new file; lines from several exit threads never mix, as each is one
 * small append. A run an older Berth left may instead hold {@code .berth-exit-N} in each task's
 * folder, which is still read.
 */
final class ExitMarks implements AutoCloseable {

  private final Path file;
  private FileChannel channel;
  private boolean failed;

  private ExitMarks(Path file) {
    this.file = file;
  }

  /** The marks of the run in {@code runDir}; the file is made at the first exit. */
  static ExitMarks of(Path runDir) {
    return new ExitMarks(runDir.resolve(".berth-exits"));
  }

  /** Marks the exit of {@code attempt} of the task whose folder is {@code taskDir}. Called from exit threads. */
  synchronized void write(Path taskDir, int attempt, int exitCode) {
    if (failed) {
      return;
    }
    byte[] line = (attempt + "\t" + exitCode + "\t" + taskDir.toAbsolutePath() + "\n").getBytes(StandardCharsets.UTF_8);
    try {
      if (channel == null) {
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
      }
      ByteBuffer buffer = ByteBuffer.wrap(line);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    } catch (IOException e) {
      failed = true; // The journal still gets the exit through the engine; the mark only matters after a crash.
    }
  }

  /** Every exit marked in the run's file, by task folder and attempt. */
  SortedMap<String, Integer> readAll() {
    SortedMap<String, Integer> codes = new TreeMap<>();
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        String[] f = line.split("\t", 3);
        if (f.length == 3) {
          codes.put(key(Path.of(f[2]), Integer.parseInt(f[0])), Integer.parseInt(f[1]));
        }
      }
    } catch (IOException | RuntimeException e) {
      // none yet, or a line cut by a crash: what was read stands
    }
    return codes;
  }

  /** The code {@code marks} (from {@link #readAll()}) or an older Berth's file holds for the attempt. */
  static OptionalInt read(SortedMap<String, Integer> marks, Path taskDir, int attempt) {
    Integer code = marks.get(key(taskDir, attempt));
    if (code != null) {
      return OptionalInt.of(code);
    }
    return legacy(taskDir, attempt).map(OptionalInt::of).orElse(OptionalInt.empty());
  }

  private static Optional<Integer> legacy(Path taskDir, int attempt) {
    try {
      String text = Files.readString(taskDir.resolve(".berth-exit-" + attempt), StandardCharsets.UTF_8);
      return Optional.of(Integer.parseInt(text.strip()));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
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

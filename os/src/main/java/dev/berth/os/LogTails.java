package dev.berth.os;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Reads the end of a log file, to recognise how a task or its job died. */
public final class LogTails {

  /** How much of a task's standard error is read to recognise an out-of-memory death. */
  public static final int STDERR_BYTES = 16 * 1024;

  /** How many lines of a failing attempt's standard error the reports and the dashboard show. */
  public static final int FAILURE_LINES = 5;

  private LogTails() {}

  /**
   * The last {@code lines} lines of the file (read from its last {@link #STDERR_BYTES} bytes), with
   * control characters other than tab replaced by {@code ?} so that no terminal or viewer acts on
   * them; empty when it cannot be read.
   */
  public static String lastLines(Path file, int lines) {
    return lastLines(read(file, STDERR_BYTES), lines);
  }

  /**
   * The last {@code lines} lines of {@code text}, the end of a log read by the caller, made harmless as
   * {@link #lastLines(Path, int)} makes them.
   */
  public static String lastLines(String log, int lines) {
    String text = log.replace("\r\n", "\n").stripTrailing();
    int start = text.length();
    for (int n = 0; n < lines && start > 0; n++) {
      start = text.lastIndexOf('\n', start - 1);
      if (start < 0) {
        start = 0;
        break;
      }
    }
    String tail = text.substring(start).strip();
    StringBuilder safe = new StringBuilder(tail.length());
    tail.codePoints().forEach(c -> safe.appendCodePoint(c == '\n' || c == '\t' || !Character.isISOControl(c) ? c : '?'));
    return safe.toString();
  }

  /** The last {@code bytes} bytes of the file as text, or empty when it cannot be read. */
  public static String read(Path file, int bytes) {
    return read(file, 0, bytes);
  }

  /**
   * The last {@code bytes} bytes of the file, but nothing before offset {@code from} (what an earlier
   * attempt wrote to a shared file), as text; empty when there is nothing after it or it cannot be read.
   */
  public static String read(Path file, long from, int bytes) {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long start = Math.max(Math.max(0, from), f.length() - bytes);
      if (start >= f.length()) {
        return "";
      }
      byte[] buf = new byte[(int) (f.length() - start)];
      f.seek(start);
      f.readFully(buf);
      return new String(buf, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}

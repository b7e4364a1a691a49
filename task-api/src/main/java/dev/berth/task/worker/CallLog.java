package dev.berth.task.worker;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One of a call's logs in a Java engine, made a file only when the call writes to it, as a Python
 * engine's are: most tiny calls print nothing, and on a busy file system each new file costs more than
 * the call. The first write creates the attempt's file and gives it the task's name too (a hard link,
 * {@code stdout.log} or {@code stderr.log}), so the task's log is the attempt's.
 */
final class CallLog extends OutputStream {

  private final Path file;
  private final Path shown;
  private OutputStream out;

  /**
   * The log {@code file} of an attempt, shown as {@code shown} (null: not shown under another name).
   * A later attempt's task log is removed at once: an earlier attempt's log is not this one's.
   */
  CallLog(Path file, Path shown, boolean laterAttempt) {
    this.file = file;
    this.shown = shown == null || shown.equals(file) ? null : shown;
    if (laterAttempt && this.shown != null) {
      try {
        Files.deleteIfExists(this.shown);
      } catch (IOException e) {
        // left as it was: the attempt's own file is what Berth reads
      }
    }
  }

  @Override
  public void write(int b) throws IOException {
    open().write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (len > 0) {
      open().write(b, off, len);
    }
  }

  @Override
  public void flush() throws IOException {
    if (out != null) {
      out.flush();
    }
  }

  @Override
  public void close() throws IOException {
    if (out != null) {
      out.close();
    }
  }

  private OutputStream open() throws IOException {
    if (out == null) {
      out = new FileOutputStream(file.toFile(), true);
      if (shown != null) {
        try {
          Files.deleteIfExists(shown);
          Files.createLink(shown, file);
        } catch (IOException | UnsupportedOperationException e) {
          // no links here: the attempt's own file is what Berth reads
        }
      }
    }
    return out;
  }
}

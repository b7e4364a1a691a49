package dev.berth.runtime.engine;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Reads the end of a log file, to recognise how a task died. */
final class Tails {

  private Tails() {}

  /** The last {@code bytes} bytes of the file as text, or empty when it cannot be read. */
  static String read(Path file, int bytes) {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long start = Math.max(0, f.length() - bytes);
      byte[] buf = new byte[(int) (f.length() - start)];
      f.seek(start);
      f.readFully(buf);
      return new String(buf, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}

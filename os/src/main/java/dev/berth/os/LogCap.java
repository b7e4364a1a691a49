package dev.berth.os;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Keeps a log that a process appends to within a size: once it is larger, it is cut back to its
 * first half and a marker line is added, after which the process's later output follows (it writes
 * in append mode, so its next write lands after the marker). The head, which usually says what the
 * task was doing, and the latest output, which says how it ended, are what is kept.
 */
public final class LogCap {

  private LogCap() {}

  /**
   * Cuts {@code file} when it is larger than {@code capBytes}.
   *
   * @return whether it was cut
   */
  public static boolean cut(Path file, long capBytes) {
    try {
      long size = Files.size(file);
      if (size <= capBytes) {
        return false;
      }
      long head = capBytes / 2;
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        ch.truncate(head);
      }
      String marker = "\n[berth: output cut here; this attempt's log is capped at " + capBytes
          + " bytes (scheduler.log-cap): its head is above, its latest output below]\n";
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
        ch.write(ByteBuffer.wrap(marker.getBytes(StandardCharsets.UTF_8)));
      }
      return true;
    } catch (IOException e) {
      return false; // gone or not ours to cut: the disk fills as it would have
    }
  }
}

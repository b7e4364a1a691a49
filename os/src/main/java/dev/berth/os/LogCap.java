package dev.berth.os;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps a log that a process appends to within a size: once it is larger, it keeps its first half
 * (the head, which usually says what the task was doing), then a marker line saying how many bytes
 * were cut, then its last lines (the tail, which says how it ended: a traceback on standard error).
 * A process still running writes in append mode, so its next write lands after the tail, and the
 * next cut moves the tail on, counting every byte cut so far in the one marker.
 *
 * <p>The tail moves within the file a buffer at a time: a log of any size costs the same memory.
 */
public final class LogCap {

  /** The marker's words; the count of bytes cut comes first, so that a later cut can add to it. */
  private static final Pattern MARKER = Pattern.compile("\n\\[berth: (\\d{1,18}) bytes of output cut here;[^\n]*\\]\n");

  /** Longest marker: the count at its widest. */
  private static final int MARKER_MAX = 200;

  /** How far into the tail its first line may start: a longer partial line is kept as it is. */
  private static final int LINE_SEARCH = 64 * 1024;

  private static final int BUFFER = 1 << 20;

  /**
   * One cut at a time: a log is cut both by the samples and when its attempt ends, on two threads,
   * and two cuts of one file at once would each move the tail the other is moving.
   */
  private static final Object CUTTING = new Object();

  /** Rounds of moving what a running process wrote during a cut: a writer faster than a copy is not waited for. */
  private static final int LATER_ROUNDS = 8;

  private LogCap() {}

  /**
   * Cuts {@code file} when it is larger than {@code capBytes}: what is left is its head, a marker and
   * its tail, within the cap.
   *
   * @return whether it was cut
   */
  public static boolean cut(Path file, long capBytes) {
    try {
      if (Files.size(file) <= capBytes) {
        return false; // the usual answer, given without waiting for another log's cut
      }
      synchronized (CUTTING) {
        return cutOver(file, capBytes);
      }
    } catch (IOException e) {
      return false; // gone or not ours to cut: the disk fills as it would have
    }
  }

  private static boolean cutOver(Path file, long capBytes) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long size = ch.size();
      if (size <= capBytes) {
        return false;
      }
      long head = capBytes / 2;
      long cutBefore = 0;
      long after = head; // where the output after the head goes on: past an earlier cut's marker
      Matcher earlier = MARKER.matcher(text(ch, head, MARKER_MAX));
      if (earlier.lookingAt()) {
        cutBefore = Long.parseLong(earlier.group(1));
        after = head + earlier.end();
      }
      long tail = capBytes - head - marker(Long.MAX_VALUE, capBytes).length;
      if (tail <= 0) { // a cap too small for a marker and a tail keeps only its head
        ch.truncate(head);
        return true;
      }
      long from = lineStart(ch, Math.max(size - tail, after), size);
      byte[] marker = marker(cutBefore + from - after, capBytes);
      long to = head + marker.length;
      move(ch, from, size, to);
      ch.write(ByteBuffer.wrap(marker), head);
      ch.truncate(keepLater(ch, size, to + size - from));
      return true;
    }
  }

  /**
   * A process still running appends while the tail moves: what it wrote past {@code end} is moved
   * behind the tail too, a few rounds at most, so that the truncation loses at most what lands in
   * its last instant (and the marker's count stays true of what was cut).
   *
   * @return where the kept log ends
   */
  private static long keepLater(FileChannel ch, long end, long keptEnd) throws IOException {
    long kept = keptEnd;
    for (int round = 0; round < LATER_ROUNDS; round++) {
      long now = ch.size();
      if (now <= end) {
        break;
      }
      move(ch, end, now, kept);
      kept += now - end;
      end = now;
    }
    return kept;
  }

  private static byte[] marker(long bytesCut, long capBytes) {
    return ("\n[berth: " + bytesCut + " bytes of output cut here; this attempt's log is capped at " + capBytes
        + " bytes (scheduler.log-cap): its head is above, its latest output below]\n").getBytes(StandardCharsets.UTF_8);
  }

  /** Up to {@code length} bytes at {@code at}, as text that keeps one character per byte. */
  private static String text(FileChannel ch, long at, int length) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(length);
    while (buf.hasRemaining() && ch.read(buf, at + buf.position()) > 0) {
      // read on: a file may answer in parts
    }
    return new String(buf.array(), 0, buf.position(), StandardCharsets.ISO_8859_1);
  }

  /** The start of the first whole line at or after {@code at}, when one starts soon enough; else {@code at}. */
  private static long lineStart(FileChannel ch, long at, long end) throws IOException {
    if (at == 0) {
      return at;
    }
    String before = text(ch, at - 1, (int) Math.min(LINE_SEARCH, end - at + 1));
    int newline = before.indexOf('\n');
    return newline < 0 || at + newline >= end ? at : at + newline;
  }

  /**
   * Copies the bytes from {@code from} to {@code end} down to {@code to}, a buffer at a time from
   * the front: {@code to} is before {@code from}, so no byte is overwritten before it is read.
   */
  private static void move(FileChannel ch, long from, long end, long to) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(BUFFER, Math.max(1, end - from)));
    long read = from;
    long write = to;
    while (read < end) {
      buf.clear().limit((int) Math.min(buf.capacity(), end - read));
      int n = ch.read(buf, read);
      if (n <= 0) {
        break;
      }
      buf.flip();
      while (buf.hasRemaining()) {
        write += ch.write(buf, write);
      }
      read += n;
    }
  }
}

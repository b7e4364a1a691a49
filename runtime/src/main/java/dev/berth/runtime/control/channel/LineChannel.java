package dev.berth.runtime.control.channel;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * One connected socket as UTF-8 lines. One thread reads while others write: the channel's own
 * read and write methods allow that, whereas {@code Channels.newInputStream} and
 * {@code newOutputStream} share a lock and would block a write behind a pending read.
 */
final class LineChannel implements AutoCloseable {

  /** A line longer than the limit; the connection cannot be trusted any further. */
  static final class LineTooLongException extends IOException {
    private static final long serialVersionUID = 1L;

    LineTooLongException(int limit) {
      super("a line is longer than " + limit + " bytes");
    }
  }

  private final SocketChannel channel;
  private final int maxLineBytes;
  private final ByteBuffer in = ByteBuffer.allocate(8192).flip();
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private final Object writeLock = new Object();

  LineChannel(SocketChannel channel, int maxLineBytes) {
    this.channel = channel;
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * The next line without its line end, or null at the end of the stream. A last line without a
   * line end is still returned, so that a truncated message is reported rather than ignored.
   */
  String readLine() throws IOException {
    while (true) {
      while (in.hasRemaining()) {
        byte b = in.get();
        if (b == '\n') {
          return take();
        }
        if (line.size() >= maxLineBytes) {
          throw new LineTooLongException(maxLineBytes);
        }
        line.write(b);
      }
      in.clear();
      int n = channel.read(in);
      in.flip();
      if (n < 0) {
        return line.size() > 0 ? take() : null;
      }
    }
  }

  private String take() {
    String s = line.toString(StandardCharsets.UTF_8);
    line.reset();
    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
  }

  /** Writes one line and its line end. */
  void writeLine(String text) throws IOException {
    synchronized (writeLock) {
      write(text);
    }
  }

  /**
   * Writes the lines {@code lines} returns, calling it while holding the write lock, so that no
   * other line can slip in between deciding what to write and writing it.
   */
  void writeLines(Supplier<List<String>> lines) throws IOException {
    synchronized (writeLock) {
      for (String text : lines.get()) {
        write(text);
      }
    }
  }

  private void write(String text) throws IOException {
    ByteBuffer out = ByteBuffer.wrap((text + "\n").getBytes(StandardCharsets.UTF_8));
    while (out.hasRemaining()) {
      channel.write(out);
    }
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // closing a socket that already failed: nothing left to do
    }
  }
}

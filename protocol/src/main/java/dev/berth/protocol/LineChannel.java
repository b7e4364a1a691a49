package dev.berth.protocol;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * The control channel's framing, for both ends: one message per line of UTF-8 text ended by
 * {@code \n} (a {@code \r} before it is dropped; blank lines are skipped), at most
 * {@link #MAX_LINE_BYTES} bytes a line. One thread reads while others write: the socket channel's
 * own read and write allow that, whereas {@code Channels.newInputStream} and
 * {@code newOutputStream} share a lock and would stall a write behind a pending read.
 */
public final class LineChannel implements AutoCloseable {

  /** The longest line either end accepts; a result map or a traceback fits easily. */
  public static final int MAX_LINE_BYTES = 16 << 20;

  /** A line longer than the limit; the connection cannot be trusted any further. */
  public static final class LineTooLongException extends IOException {
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

  /** Lines over a connected socket, with the usual limit. */
  public LineChannel(SocketChannel channel) {
    this(channel, MAX_LINE_BYTES);
  }

  /** Lines over a connected socket, at most {@code maxLineBytes} bytes each. */
  public LineChannel(SocketChannel channel, int maxLineBytes) {
    this.channel = channel;
    this.maxLineBytes = maxLineBytes;
  }

  /** Connects to the Unix domain socket at {@code path}: the task's end. */
  public static LineChannel connect(Path path) throws IOException {
    SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      channel.connect(UnixDomainSocketAddress.of(path));
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    return new LineChannel(channel);
  }

  /**
   * The next line that is not blank, without its line end, or null at the end of the stream. A last
   * line without a line end is still returned, so that a truncated message is reported rather than
   * ignored.
   *
   * @throws LineTooLongException when a line exceeds the limit
   */
  public String readLine() throws IOException {
    while (true) {
      String next = nextLine();
      if (next == null || !next.isBlank()) {
        return next;
      }
    }
  }

  private String nextLine() throws IOException {
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

  /** Writes one line and its line end; callable from any thread. */
  public void writeLine(String text) throws IOException {
    synchronized (writeLock) {
      write(text);
    }
  }

  /**
   * Writes the lines {@code lines} returns, calling it while holding the write lock, so that no
   * other line can slip in between deciding what to write and writing it.
   */
  public void writeLines(Supplier<List<String>> lines) throws IOException {
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

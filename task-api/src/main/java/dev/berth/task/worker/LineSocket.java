package dev.berth.task.worker;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The task's end of the control socket, as UTF-8 lines. One thread reads while others write:
 * the channel's own read and write allow that, whereas the stream adapters of
 * {@code java.nio.channels.Channels} share one lock and would stall a write behind a read.
 */
final class LineSocket implements AutoCloseable {

  private final SocketChannel channel;
  private final ByteBuffer in = ByteBuffer.allocate(4096).flip();
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private final Object writeLock = new Object();

  private LineSocket(SocketChannel channel) {
    this.channel = channel;
  }

  /** Connects to the Unix domain socket at {@code path}. */
  static LineSocket connect(Path path) throws IOException {
    SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      channel.connect(UnixDomainSocketAddress.of(path));
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    return new LineSocket(channel);
  }

  /** The next line without its line end, or null at the end of the stream. */
  String readLine() throws IOException {
    while (true) {
      while (in.hasRemaining()) {
        byte b = in.get();
        if (b == '\n') {
          String s = line.toString(StandardCharsets.UTF_8);
          line.reset();
          return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
        }
        line.write(b);
      }
      in.clear();
      int n = channel.read(in);
      in.flip();
      if (n < 0) {
        return null;
      }
    }
  }

  /** Writes one line and its line end; callable from any thread. */
  void writeLine(String text) throws IOException {
    ByteBuffer out = ByteBuffer.wrap((text + "\n").getBytes(StandardCharsets.UTF_8));
    synchronized (writeLock) {
      while (out.hasRemaining()) {
        channel.write(out);
      }
    }
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // nothing more to do with a socket that will not close
    }
  }
}

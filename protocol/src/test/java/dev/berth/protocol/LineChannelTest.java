package dev.berth.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LineChannelTest {

  private Path dir;
  private ServerSocketChannel server;

  @BeforeEach
  void listen() throws IOException {
    dir = Files.createTempDirectory("lc"); // short: socket paths are limited to about 100 bytes
    server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(dir.resolve("s.sock")));
  }

  @AfterEach
  void close() throws IOException {
    server.close();
    Files.deleteIfExists(dir.resolve("s.sock"));
    Files.delete(dir);
  }

  @Test
  void linesArriveWholeWithoutTheirLineEndsAndBlankLinesAreSkipped() throws Exception {
    try (LineChannel task = LineChannel.connect(dir.resolve("s.sock"));
        SocketChannel berth = server.accept()) {
      write(berth, "{\"type\":\"lo");
      write(berth, "ad\"}\r\n\n  \r\n{\"type\":\"train\",\"device\":\"cuda:1\"}\n\u00e9\n");

      assertThat(task.readLine()).isEqualTo("{\"type\":\"load\"}");
      assertThat(task.readLine()).isEqualTo("{\"type\":\"train\",\"device\":\"cuda:1\"}");
      assertThat(task.readLine()).isEqualTo("\u00e9");
    }
  }

  @Test
  void aLastLineWithoutItsLineEndIsStillReadThenTheEnd() throws Exception {
    try (LineChannel task = LineChannel.connect(dir.resolve("s.sock"))) {
      try (SocketChannel berth = server.accept()) {
        write(berth, "{\"type\":");
      }

      assertThat(task.readLine()).isEqualTo("{\"type\":");
      assertThat(task.readLine()).isNull();
    }
  }

  @Test
  void aLineOverTheLimitIsRefused() throws Exception {
    try (LineChannel task = LineChannel.connect(dir.resolve("s.sock"));
        LineChannel berth = new LineChannel(server.accept(), 8)) {
      task.writeLine("12345678");
      task.writeLine("123456789");

      assertThat(berth.readLine()).isEqualTo("12345678");
      assertThatThrownBy(berth::readLine).isInstanceOf(LineChannel.LineTooLongException.class)
          .hasMessage("a line is longer than 8 bytes");
    }
  }

  @Test
  void writtenLinesEndWithANewline() throws Exception {
    try (LineChannel task = LineChannel.connect(dir.resolve("s.sock"));
        SocketChannel berth = server.accept()) {
      task.writeLines(() -> List.of("a", "b\u00e9"));
      task.writeLine("c");

      ByteBuffer in = ByteBuffer.allocate(64);
      while (in.position() < 8) {
        berth.read(in);
      }
      assertThat(new String(in.array(), 0, in.position(), StandardCharsets.UTF_8)).isEqualTo("a\nb\u00e9\nc\n");
    }
  }

  private static void write(SocketChannel channel, String text) throws IOException {
    ByteBuffer out = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    while (out.hasRemaining()) {
      channel.write(out);
    }
  }
}

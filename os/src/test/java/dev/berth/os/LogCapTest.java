package dev.berth.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.regex.Matcher;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogCapTest {

  private static final Pattern COUNT = Pattern.compile("\\[berth: (\\d+) bytes of output cut here;");

  @TempDir Path dir;

  private static long bytesCut(String text) {
    Matcher m = COUNT.matcher(text);
    assertThat(m.find()).as("a marker in %s", text).isTrue();
    return Long.parseLong(m.group(1));
  }

  /** The output a cut log still shows: all but its marker line. */
  private static String kept(String text) {
    return text.replaceFirst("\n\\[berth: [^\n]*\\]\n", "");
  }

  @Test
  void aLogWithinItsCapIsLeftAlone() throws Exception {
    Path log = Files.writeString(dir.resolve("a.log"), "small\n");

    assertThat(LogCap.cut(log, 1024)).isFalse();

    assertThat(log).hasContent("small");
  }

  @Test
  void aLogOverItsCapKeepsItsHeadAMarkerCountingTheBytesCutAndItsLastLines() throws Exception {
    String head = "H".repeat(600);
    String middle = "M".repeat(5000) + "\n";
    String tail = "step 1\n".repeat(40) + "Traceback: the end\n";
    Path log = Files.writeString(dir.resolve("b.log"), head + middle + tail);

    assertThat(LogCap.cut(log, 1000)).isTrue();

    String text = Files.readString(log);
    assertThat(Files.size(log)).isLessThanOrEqualTo(1000);
    assertThat(text).startsWith("H".repeat(500) + "\n[berth: ").endsWith("step 1\nTraceback: the end\n")
        .doesNotContain("M");
    String after = text.substring(text.indexOf("below]\n") + "below]\n".length());
    assertThat(after).startsWith("step 1\n"); // whole lines, not the end of one
    assertThat(bytesCut(text) + kept(text).length()).isEqualTo(head.length() + middle.length() + tail.length());
  }

  @Test
  void whatIsAppendedAfterACutFollowsAndTheNextCutAddsToTheCount() throws Exception {
    Path log = Files.writeString(dir.resolve("c.log"), "H".repeat(600) + "T".repeat(3000) + "\n");
    long written = 3601;

    assertThat(LogCap.cut(log, 1000)).isTrue();
    String more = "line\n".repeat(2000) + "latest\n";
    Files.writeString(log, more, StandardOpenOption.APPEND);
    written += more.length();
    assertThat(LogCap.cut(log, 1000)).isTrue();

    String text = Files.readString(log);
    assertThat(Files.size(log)).isLessThanOrEqualTo(1000);
    assertThat(text).startsWith("H".repeat(500) + "\n[berth: ").endsWith("line\nlatest\n").doesNotContain("T");
    assertThat(text.split("\\[berth: ", -1)).hasSize(2); // one marker, however many cuts
    assertThat(bytesCut(text) + kept(text).length()).isEqualTo(written);
  }

  @Test
  void aTailWithoutLineBreaksIsKeptToTheByte() throws Exception {
    Path log = Files.writeString(dir.resolve("d.log"), "x".repeat(500_000) + "END");

    assertThat(LogCap.cut(log, 100_000)).isTrue();

    String text = Files.readString(log);
    assertThat(Files.size(log)).isBetween(99_900L, 100_000L);
    assertThat(text).endsWith("xxxEND");
    assertThat(bytesCut(text) + kept(text).length()).isEqualTo(500_003);
  }

  @Test
  void cutsOnTwoThreadsWhileTheProcessWritesKeepOneTrueCountAndTheLastLine() throws Exception {
    Path log = dir.resolve("e.log");
    long cap = 256 * 1024;
    byte[] chunk = "aaaa\n".repeat(4000).getBytes(StandardCharsets.US_ASCII);
    int chunks = 400;
    AtomicBoolean writing = new AtomicBoolean(true);
    Runnable cutter = () -> {
      while (writing.get()) {
        LogCap.cut(log, cap);
      }
    };
    Thread samples = new Thread(cutter);
    Thread ends = new Thread(cutter);
    try (FileChannel out = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.APPEND)) {
      samples.start();
      ends.start();
      for (int i = 0; i < chunks; i++) {
        out.write(ByteBuffer.wrap(chunk));
      }
      out.write(ByteBuffer.wrap("END\n".getBytes(StandardCharsets.US_ASCII)));
    } finally {
      writing.set(false);
      samples.join();
      ends.join();
    }
    LogCap.cut(log, cap);

    String text = Files.readString(log);
    long written = (long) chunk.length * chunks + 4;
    assertThat(text).endsWith("aaaa\nEND\n");
    assertThat(text.split("\\[berth: ", -1)).hasSize(2);
    // a write that lands in the instant a cut truncates is lost, uncounted; no byte is ever counted twice
    assertThat(bytesCut(text) + kept(text).length()).isLessThanOrEqualTo(written);
  }
}

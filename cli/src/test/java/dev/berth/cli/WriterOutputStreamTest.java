package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WriterOutputStreamTest {

  private final StringWriter written = new StringWriter();
  private final WriterOutputStream stream = new WriterOutputStream(new PrintWriter(written));

  @Test
  void theCompleteLinesOfAnArrayReachTheWriterAndTheRestWaitsForItsLineEnd() {
    stream.write(bytes("one\ntwo\nthr"), 0, 11);
    assertThat(written).hasToString("one\ntwo\n");

    stream.write(bytes("xee\nfour"), 1, 6);
    assertThat(written).hasToString("one\ntwo\nthree\n");

    stream.write('r');
    stream.write('\n');
    assertThat(written).hasToString("one\ntwo\nthree\nfour\n");
  }

  @Test
  void aCharacterSplitBetweenTwoWritesArrivesWhole() {
    byte[] euro = bytes("€\n");
    stream.write(euro, 0, 1);
    stream.write(euro, 1, euro.length - 1);

    assertThat(written).hasToString("€\n");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}

package dev.berth.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogCapTest {

  @TempDir Path dir;

  @Test
  void aLogWithinItsCapIsLeftAlone() throws Exception {
    Path log = Files.writeString(dir.resolve("a.log"), "small\n");

    assertThat(LogCap.cut(log, 1024)).isFalse();

    assertThat(log).hasContent("small");
  }

  @Test
  void aLogOverItsCapKeepsItsHeadAndAMarkerAndWhatIsAppendedLaterFollows() throws Exception {
    Path log = Files.writeString(dir.resolve("b.log"), "H".repeat(600) + "T".repeat(600));

    assertThat(LogCap.cut(log, 1000)).isTrue();
    Files.writeString(log, "latest\n", java.nio.file.StandardOpenOption.APPEND);

    String text = Files.readString(log);
    assertThat(text).startsWith("H".repeat(500) + "\n[berth: output cut here;").endsWith("below]\nlatest\n")
        .doesNotContain("T");
  }
}

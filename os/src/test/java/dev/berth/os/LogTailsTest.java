package dev.berth.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogTailsTest {

  @TempDir Path dir;

  @Test
  void theLastBytesOfAFileAreRead() throws IOException {
    Path log = Files.writeString(dir.resolve("stderr.log"), "first line\nKilled: out of memory\n");

    assertThat(LogTails.read(log, 22)).isEqualTo("Killed: out of memory\n");
    assertThat(LogTails.read(log, 1000)).isEqualTo("first line\nKilled: out of memory\n");
  }

  @Test
  void nothingBeforeTheOffsetIsRead() throws IOException {
    Path log = Files.writeString(dir.resolve("shared.log"), "earlier attempt\nthis attempt\n");

    assertThat(LogTails.read(log, 16, 1000)).isEqualTo("this attempt\n");
    assertThat(LogTails.read(log, 29, 1000)).isEmpty();
  }

  @Test
  void aMissingFileReadsAsEmpty() {
    assertThat(LogTails.read(dir.resolve("never-written"), LogTails.STDERR_BYTES)).isEmpty();
  }
}

package dev.berth.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

  @TempDir Path dir;

  @Test
  void aWriteReplacesTheFileAndCreatesItsFolder() throws IOException {
    Path file = dir.resolve("a/b/report.json");
    AtomicFiles.write(file, "old");

    AtomicFiles.write(file, "new, längere");

    assertThat(file).content().isEqualTo("new, längere");
    assertThat(dir.resolve("a/b")).isDirectoryNotContaining("glob:**.tmp");
  }

  @Test
  void aFailedWriteLeavesTheOldFileAndNoTemporaryFile() throws IOException {
    Path file = dir.resolve("busy");
    Files.createDirectories(file.resolve("not-empty"));

    assertThatThrownBy(() -> AtomicFiles.write(file, new byte[] {1, 2})).isInstanceOf(IOException.class);
    assertThat(file.resolve("not-empty")).isDirectory();
    assertThat(dir).isDirectoryNotContaining("glob:**.tmp");
  }
}

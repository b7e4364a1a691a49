package dev.berth.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
  void aPrivateFileIsItsOwnersOnlyAndReplacedWhole() throws IOException {
    Path file = dir.resolve("home/.berth/serve-token");
    AtomicFiles.writePrivate(file, "old\n");

    AtomicFiles.writePrivate(file, "new\n");

    assertThat(file).content().isEqualTo("new\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(file.getParent()).isDirectoryNotContaining("glob:**.tmp");
  }

  @Test
  void aFailedWriteLeavesTheOldFileAndNoTemporaryFile() throws IOException {
    Path file = dir.resolve("busy");
    Files.createDirectories(file.resolve("not-empty"));

    assertThatThrownBy(() -> AtomicFiles.write(file, new byte[] {1, 2})).isInstanceOf(IOException.class);
    assertThat(file.resolve("not-empty")).isDirectory();
    assertThat(dir).isDirectoryNotContaining("glob:**.tmp");
  }

  @Test
  void contentWrittenAsItIsMadeArrivesWholeEvenWhenItClosesTheStream() throws IOException {
    Path file = dir.resolve("report.json");
    byte[] large = new byte[200_000];
    java.util.Arrays.fill(large, (byte) 'x');

    AtomicFiles.write(file, out -> {
      out.write('[');
      out.write(large, 0, large.length);
      out.write(']');
      out.close();
    });

    assertThat(Files.size(file)).isEqualTo(200_002);
    assertThat(dir).isDirectoryNotContaining("glob:**.tmp");
  }

  @Test
  void contentThatFailsHalfWayLeavesTheOldFileAndNoTemporaryFile() throws IOException {
    Path file = dir.resolve("report.md");
    AtomicFiles.write(file, "old");

    assertThatThrownBy(() -> AtomicFiles.write(file, out -> {
      out.write(new byte[100_000]);
      throw new IOException("disk full");
    })).hasMessage("disk full");

    assertThat(file).content().isEqualTo("old");
    assertThat(dir).isDirectoryNotContaining("glob:**.tmp");
  }
}

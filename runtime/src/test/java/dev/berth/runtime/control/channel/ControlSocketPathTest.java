package dev.berth.runtime.control.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControlSocketPathTest {

  @TempDir Path dir;

  @Test
  void theSocketIsAShortNameInTheTemporaryDirectory() {
    Path socket = ControlSocketPath.forRun(dir.resolve("a/very/deep/run/folder/that/goes/on/and/on/and/on/for/ever"));

    assertThat(socket.getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath());
    assertThat(socket.getFileName().toString()).matches("berth-[0-9a-f]{12}\\.sock");
  }

  @Test
  void theNameIsStablePerRunFolderAndDiffersBetweenThem() {
    Path run = dir.resolve("run");

    assertThat(ControlSocketPath.forRun(run)).isEqualTo(ControlSocketPath.forRun(dir.resolve("x/../run")));
    assertThat(ControlSocketPath.forRun(run)).isNotEqualTo(ControlSocketPath.forRun(dir.resolve("other")));
  }

  @Test
  void aTemporaryDirectoryTooDeepForASocketIsAvoided() {
    Path deep = dir.resolve("d".repeat(120));

    Path socket = ControlSocketPath.forRun(dir.resolve("run"), deep);

    assertThat(socket.toString().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(ControlSocketPath.MAX_BYTES);
    assertThat(socket.getFileName()).isEqualTo(ControlSocketPath.forRun(dir.resolve("run")).getFileName());
  }
}

package dev.berth.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.TaskId;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

@DisabledOnOs(OS.WINDOWS)
class LaunchPreparationTest {

  @TempDir Path dir;

  @Test
  void theWorkingDirectoryAndTheFoldersOfBothOutputsAreCreated() throws LaunchException {
    LaunchRequest request = new LaunchRequest(TaskId.of("t"), 1, List.of("true"), new TreeMap<>(), dir.resolve("work"),
        dir.resolve("out/stdout.log"), dir.resolve("err/stderr.log"));

    LaunchPreparation.createFolders(request, LaunchException::new);

    assertThat(dir.resolve("work")).isDirectory();
    assertThat(dir.resolve("out")).isDirectory();
    assertThat(dir.resolve("err")).isDirectory();
  }

  @Test
  void aFileInTheWayIsAFailureSayingSo() throws IOException {
    Files.writeString(dir.resolve("work"), "");
    LaunchRequest request = request(List.of("true"), Map.of());

    assertThatThrownBy(() -> LaunchPreparation.createFolders(request, LaunchException::new))
        .isInstanceOf(LaunchException.class)
        .hasMessageContaining("could not create working directory")
        .hasMessageEndingWith("a file that is not a directory is in the way");
  }

  @Test
  void aProgramIsFoundOnTheAttemptsOwnPathOrRelativeToItsWorkingDirectory() throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path tool = Files.writeString(bin.resolve("tool"), "#!/bin/sh\n");
    tool.toFile().setExecutable(true);
    Files.createDirectories(dir.resolve("work"));

    assertThat(LaunchPreparation.runnable(request(List.of("tool"), Map.of("PATH", bin.toString())))).isTrue();
    assertThat(LaunchPreparation.runnable(request(List.of("tool"), Map.of("PATH", dir.toString())))).isFalse();
    assertThat(LaunchPreparation.runnable(request(List.of("../bin/tool"), Map.of()))).isTrue();
    assertThat(LaunchPreparation.onPath("tool", dir + ":" + bin)).isTrue();
  }

  @Test
  void theProgramFoundIsTheFirstOnThePathAndARelativeFolderIsTakenFromTheWorkingDirectory() throws IOException {
    Path first = executable(dir.resolve("work/tools/tool"));
    Path second = executable(dir.resolve("bin/tool"));

    assertThat(LaunchPreparation.program(request(List.of("tool"), Map.of("PATH", "tools:" + dir.resolve("bin")))))
        .contains(first);
    assertThat(LaunchPreparation.program(request(List.of("tool"), Map.of("PATH", dir.resolve("bin") + ":tools"))))
        .contains(second);
    assertThat(LaunchPreparation.program(request(List.of("missing-tool"), Map.of("PATH", "tools")))).isEmpty();
  }

  private static Path executable(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "#!/bin/sh\n");
    assertThat(file.toFile().setExecutable(true)).isTrue();
    return file;
  }

  private LaunchRequest request(List<String> command, Map<String, String> env) {
    Path work = dir.resolve("work");
    return new LaunchRequest(TaskId.of("t"), 1, command, new TreeMap<>(env), work, work.resolve("stdout.log"), work.resolve("stderr.log"));
  }
}

package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** File-system trouble is one line naming the path and the cause, exit code 3, and no stack trace. */
class FileTroubleTest {

  @TempDir Path dir;

  private Path spec() throws IOException {
    return Files.writeString(dir.resolve("spec.yaml"), """
        name: fs
        groups:
          - name: g
            tasks:
              - id: a
                command: ["true"]
        """);
  }

  @Test
  void aWorkdirThatIsAFileIsOneLineNamingItAndExitCodeThree() throws IOException {
    Path file = Files.writeString(dir.resolve("a-file"), "x");

    CliRunner run = CliRunner.berth("run", "--no-progress", "--workdir", file.toString(), spec().toString());

    assertThat(run.exitCode).isEqualTo(ExitCodes.INTERNAL);
    assertThat(run.err).isEqualTo("berth: " + file + ": exists already, and is not a folder Berth can use\n");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void aWorkdirUnderProcIsOneLineNamingIt() throws IOException {
    CliRunner run = CliRunner.berth("run", "--no-progress", "--workdir", "/proc/self/berth-run", spec().toString());

    assertThat(run.exitCode).isEqualTo(ExitCodes.INTERNAL);
    assertThat(run.err).startsWith("berth: /proc/self/berth-run: ").doesNotContain("\tat ").hasLineCount(1);
  }

  @Test
  void aReadOnlyOrFullDiskIsNamedInTheSystemsWords() {
    var readOnly = new UncheckedIOException(new FileSystemException("/data/run/.berth", null, "Read-only file system"));
    var full = new RuntimeException(new IOException("No space left on device"));

    assertThat(FileTrouble.describe(readOnly)).contains("/data/run/.berth: Read-only file system");
    assertThat(FileTrouble.describe(full)).contains("No space left on device");
  }

  @Test
  void aJournalThatCannotBeWrittenIsItsOwnOneLine() {
    var journal = new IllegalStateException("the journal cannot be written", new dev.berth.spi.JournalException(
        Path.of("/data/run/.berth/journal.db"), "the disk is full (SQLite: database or disk is full)"));

    assertThat(FileTrouble.describe(journal))
        .contains("/data/run/.berth/journal.db: the disk is full (SQLite: database or disk is full)");
  }

  @Test
  void anythingElseIsStillAnInternalError() {
    assertThat(FileTrouble.describe(new IllegalStateException("a bug"))).isEmpty();
  }
}

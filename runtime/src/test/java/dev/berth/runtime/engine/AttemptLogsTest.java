package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.TaskSpec;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task's {@code stdout.log} and {@code stderr.log} are the latest attempt's files under a second
 * name; a log an older Berth kept in one file is kept beside them.
 */
class AttemptLogsTest {

  @TempDir Path dir;

  private final TaskSpec task = TaskSpec.builder("t", "g").command("x").build();

  @Test
  void theTaskLogsAreTheLatestAttemptsFilesUnderASecondName() throws Exception {
    RunLayout layout = new RunLayout(dir);
    Files.createDirectories(layout.taskDir(task));
    Files.writeString(layout.stdout(task, 1), "first\n");

    AttemptLogs.showLatest(layout, task, 1);
    assertThat(layout.stdout(task)).content().isEqualTo("first\n");
    assertThat(Files.isSymbolicLink(layout.stdout(task))).isFalse();
    assertThat(Files.isSameFile(layout.stderr(task), layout.stderr(task, 1))).isTrue();

    Files.writeString(layout.stdout(task, 2), "second\n");
    AttemptLogs.showLatest(layout, task, 2);
    assertThat(layout.stdout(task)).content().isEqualTo("second\n");
    assertThat(layout.stdout(task, 1)).content().as("the first attempt keeps its own").isEqualTo("first\n");
    assertThat(layout.taskDir(task).resolve("earlier-attempts.stdout.log")).doesNotExist();
  }

  @Test
  void aLogOfAnOlderBerthThatKeptEveryAttemptInOneFileIsKeptBesideTheNewOnes() throws Exception {
    RunLayout layout = new RunLayout(dir);
    Files.createDirectories(layout.taskDir(task));
    Files.writeString(layout.stdout(task), "all attempts\n");

    AttemptLogs.showLatest(layout, task, 2);

    assertThat(layout.taskDir(task).resolve("earlier-attempts.stdout.log")).content().isEqualTo("all attempts\n");
    assertThat(layout.stdout(task)).content().isEmpty();
    assertThat(Files.isRegularFile(layout.stdout(task, 2), LinkOption.NOFOLLOW_LINKS)).isTrue();
  }
}

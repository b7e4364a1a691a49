package dev.berth.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryWatchTest {

  private static final Duration GENEROUS = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void aFolderMadeAfterTheWatchStartedWakesItAndIsWatchedFromThenOn() throws Exception {
    Path task = dir.resolve("group").resolve("task");
    Files.createDirectories(task.getParent());
    try (DirectoryWatch watch = new DirectoryWatch(List.of(task))) {
      Files.createDirectories(task);
      assertThat(watch.awaitChange(GENEROUS)).as("the folder was made").isTrue();

      Files.writeString(task.resolve("attempt-1.stderr.log"), "first line\n");
      assertThat(watch.awaitChange(GENEROUS)).as("a log in it was written").isTrue();
    }
  }
}

package dev.berth.runtime.contain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.berth.core.model.TaskId;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under cgroup v1, a natively spawned task starts inside its attempt's groups without a joining
 * shell, because the spawning thread entered them first; and that thread is back in Berth's own.
 */
class CgroupV1ThreadJoinTest {

  @TempDir Path dir;
  private LocalProcessExecutor executor;

  @BeforeEach
  void open() {
    var v1 = CgroupV1Containment.available();
    assumeThat(v1).as("writable cgroup v1 memory and cpuacct hierarchies on this machine").isPresent();
    executor = new LocalProcessExecutor(v1.get(), Duration.ofSeconds(1));
    assumeThat(executor.spawning()).as("native spawning on this machine").isEqualTo("posix_spawn");
  }

  @AfterEach
  void close() {
    if (executor != null) {
      executor.close();
    }
  }

  @Test
  void enteringMovesTheCallingThreadAloneAndClosingMovesItBack() throws Exception {
    TaskContainment v1 = CgroupV1Containment.available().orElseThrow();
    Container container = v1.open("entered", 0);
    try {
      try (Container.Entered entered = container.enter().orElseThrow()) {
        assertThat(Files.readAllLines(Path.of("/proc/thread-self/cgroup")))
            .filteredOn(l -> l.matches("\\d+:([^:]*,)?(memory|cpuacct)(,[^:]*)?:.*")).hasSize(2)
            .allMatch(l -> l.endsWith("/entered"));
        assertThat(Files.readAllLines(Path.of("/proc/self/cgroup"))).as("the main thread stays")
            .noneMatch(l -> l.endsWith("/entered"));
      }
      assertThat(Files.readAllLines(Path.of("/proc/thread-self/cgroup"))).noneMatch(l -> l.endsWith("/entered"));
    } finally {
      container.close();
      v1.close();
    }
  }

  @Test
  void aChildStartedByTheTaskIsInTheAttemptsGroupsAndTheSpawningThreadIsNot() throws Exception {
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    // `; true` keeps the shell from exec'ing cat in place: cat is the task's child.
    LaunchRequest request = new LaunchRequest(TaskId.of("joined"), 1,
        List.of("sh", "-c", "cat /proc/self/cgroup; echo \"parent $PPID $$\"; true"), new TreeMap<>(),
        dir.resolve("work"), dir.resolve("out.log"), dir.resolve("err.log"));

    long pid = executor.launch(request, exit::complete).pid();
    List<String> own = Files.readAllLines(Path.of("/proc/thread-self/cgroup"));

    assertThat(exit.get(60, TimeUnit.SECONDS)).isZero();
    List<String> lines = Files.readAllLines(request.stdout());
    assertThat(lines).anyMatch(l -> l.matches("\\d+:([^:]*,)?memory(,[^:]*)?:.*/berth-\\d+/task-\\d+"))
        .anyMatch(l -> l.matches("\\d+:([^:]*,)?cpuacct(,[^:]*)?:.*/berth-\\d+/task-\\d+"))
        .contains("parent " + ProcessHandle.current().pid() + " " + pid);
    assertThat(own).as("the launching thread went back").noneMatch(l -> l.contains("/task-"));
  }
}

package dev.berth.runtime.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.PoolKeys;
import dev.berth.core.model.PoolSpec;
import dev.berth.spi.Execution;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Python engine makes a call's log files only when the call writes to them, and links the task's to them. */
class PoolCallLogsTest {

  @TempDir Path dir;

  private WorkerPoolExecutor executor;
  private PoolCalls calls;
  private final PoolSpec spec = PoolSpec.builder("p").set(PoolKeys.SIZE, 1).set(PoolKeys.HWM, 1).build();

  @BeforeEach
  void start() throws Exception {
    executor = PoolCalls.executor(dir);
    calls = new PoolCalls(dir);
  }

  @AfterEach
  void stop() {
    PoolCalls.stop(executor);
  }

  private Execution run(String id, int attempt, String function) throws Exception {
    PoolCalls.Exit exit = new PoolCalls.Exit();
    Execution e = executor.launch(calls.request(spec, id, attempt, function, "{}", Placement.cpu(0, 0)), exit);
    assertThat(exit.await()).isZero();
    return e;
  }

  private Path task(String id) {
    return dir.resolve("tasks").resolve(id);
  }

  @Test
  void aCallThatPrintsNothingLeavesNoLogFilesAndItsResultIsWrittenOnce() throws Exception {
    Execution call = run("quiet", 1, "quiet");

    assertThat(call.linksItsLogs()).isTrue();
    try (var files = Files.list(task("quiet"))) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactly("result.json");
    }
  }

  @Test
  void whatACallPrintsIsInItsAttemptsLogAndTheTasksWhichAreOneFile() throws Exception {
    run("talks", 1, "echo");

    Path attempt = task("talks").resolve("attempt-1.stdout.log");
    assertThat(attempt).content().isEqualTo("out []\n");
    assertThat(Files.isSameFile(attempt, task("talks").resolve("stdout.log"))).isTrue();
    assertThat(task("talks").resolve("attempt-1.stderr.log")).doesNotExist();
    assertThat(task("talks").resolve("stderr.log")).doesNotExist();
  }

  @Test
  void aLaterAttemptThatPrintsNothingTakesAwayTheTasksLinkToAnEarlierOnesLog() throws Exception {
    run("again", 1, "echo");
    run("again", 2, "quiet");

    assertThat(task("again").resolve("attempt-1.stdout.log")).content().isEqualTo("out []\n");
    assertThat(task("again").resolve("stdout.log")).doesNotExist();
    assertThat(task("again").resolve("attempt-2.stdout.log")).doesNotExist();
  }

  @Test
  void callsThatPrintOneAfterAnotherInOneEngineEachGetOnlyTheirOwnOutput() throws Exception {
    run("one", 1, "echo");
    run("two", 1, "quiet");
    run("three", 1, "echo");

    assertThat(task("one").resolve("stdout.log")).content().isEqualTo("out []\n");
    assertThat(task("two").resolve("stdout.log")).doesNotExist();
    assertThat(task("three").resolve("stdout.log")).content().isEqualTo("out []\n");
  }
}

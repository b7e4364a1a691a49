package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.RunStatus;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeHostProbe;
import dev.berth.testkit.QueuedThreads;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Processes started on launch threads: the loop goes on while they start, learns of each start
 * through its inbox, counts a starting attempt as live, and carries out a cancel or an interruption
 * that came while it started as soon as it has a process.
 */
class EngineLaunchThreadsTest {

  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final FakeHostProbe probe = new FakeHostProbe().cpus(2).totalGiB(16).availableGiB(12).utilization(0.1);
  private final FakeExecutor executor = new FakeExecutor();
  private final QueuedThreads launchThreads = new QueuedThreads();

  private Engine engine(int retries) {
    TaskSpec a = TaskSpec.builder("a", "g").command("work", "a").memoryBytes(64 * MIB).cpus(1)
        .set(TaskKeys.RETRIES, retries).build();
    RunSpec spec = new RunSpec("r", dir.toString(), SchedulerConfig.builder()
        .set(SchedulerKeys.REMAIN_MEMORY, MIB).build(),
        List.of(new GroupSpec("g", List.of(a))));
    return new Engine(spec, new RunLayout(dir), executor, probe, clock, clock, RunListener.NONE).launchOn(launchThreads);
  }

  private static final TaskId A = TaskId.of("a");

  @Test
  void theStartIsRecordedWhenTheLaunchThreadHasStartedTheProcess() {
    Engine engine = engine(0);
    engine.start();

    assertThat(launchThreads.waiting()).as("the launch waits for its thread").isEqualTo(1);
    assertThat(executor.launches()).isEmpty();
    assertThat(engine.state().task(A).state()).isEqualTo(TaskState.RUNNING);

    launchThreads.runAll();
    engine.drain();
    assertThat(engine.state().task(A).history().events()).hasAtLeastOneElementOfType(TaskEvent.Started.class);

    executor.exit(A, 0);
    engine.drain();
    assertThat(engine.result().report().status()).isEqualTo(RunStatus.SUCCEEDED);
  }

  @Test
  void aRunDoesNotEndWhileAnAttemptIsStarting() {
    Engine engine = engine(0);
    engine.start();
    engine.interrupt("interrupted by SIGTERM");
    engine.drain();

    assertThat(engine.result()).as("the starting attempt is live").isNull();
    launchThreads.runAll();
    engine.drain();

    assertThat(executor.terminations()).as("terminated once it had a process")
        .extracting(FakeExecutor.Termination::task).containsExactly(A);
    assertThat(engine.state().task(A).state()).isEqualTo(TaskState.INTERRUPTED);
    assertThat(engine.result().report().status()).isEqualTo(RunStatus.INTERRUPTED);
  }

  @Test
  void aTaskCancelledWhileItsProcessStartsEndsCancelled() {
    Engine engine = engine(2);
    engine.start();
    engine.cancel(List.of(A), "cancelled by the user");
    engine.drain();
    launchThreads.runAll();
    engine.drain();

    assertThat(executor.terminations()).extracting(FakeExecutor.Termination::task).containsExactly(A);
    assertThat(engine.state().task(A).state()).isEqualTo(TaskState.CANCELLED);
    assertThat(engine.state().task(A).history().attempts()).as("no retry for a cancel").hasSize(1);
  }

  @Test
  void aProcessThatCannotStartOnItsThreadUsesARetryAsOnTheLoop() {
    Engine engine = engine(1);
    executor.failLaunchOf(A, "no such program");
    engine.start();
    launchThreads.runAll();
    engine.drain();

    assertThat(engine.state().task(A).history().attempts().get(0).end().orElseThrow().outcome())
        .isEqualTo(Outcome.START_FAILED);
    launchThreads.runAll();
    engine.drain();
    executor.exit(A, 0);
    engine.drain();
    assertThat(engine.state().task(A).state()).isEqualTo(TaskState.SUCCEEDED);
  }

  @Test
  void anExecutorThatThrowsOnALaunchThreadEndsTheAttemptInsteadOfKeepingItLive() {
    Engine engine = engine(0);
    engine.start();
    executor.close();
    launchThreads.runAll();
    engine.drain();

    assertThat(engine.state().task(A).history().attempts().get(0).end().orElseThrow().outcome())
        .isEqualTo(Outcome.START_FAILED);
    assertThat(engine.result()).as("nothing left live").isNotNull();
  }

  @Test
  void anInterruptionOfAnAttemptWhoseProcessCouldNotStartLeavesTheTaskToTheResume() {
    Engine engine = engine(1);
    executor.failLaunchOf(A, "no such program");
    engine.start();
    engine.interrupt("interrupted by SIGINT");
    engine.drain();
    launchThreads.runAll();
    engine.drain();

    assertThat(engine.state().task(A).state()).isEqualTo(TaskState.INTERRUPTED);
    assertThat(engine.result().report().status()).isEqualTo(RunStatus.INTERRUPTED);
  }
}

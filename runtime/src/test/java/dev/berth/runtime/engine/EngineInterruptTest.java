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
import dev.berth.core.report.TaskStatus;
import dev.berth.spi.Journal;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeHostProbe;
import dev.berth.testkit.MemoryJournal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Berth stopped while a run goes on (a signal, a session closed): running tasks are terminated and
 * recorded interrupted, tasks not started stay pending, the run ends INTERRUPTED with its report but
 * stays unfinished in its journal, and a resume runs the interrupted tasks again without spending a
 * retry and without running a success twice.
 */
class EngineInterruptTest {

  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final FakeHostProbe probe = new FakeHostProbe().cpus(2).totalGiB(16).availableGiB(12).utilization(0.1);
  private final SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.REMAIN_MEMORY, MIB).build();
  private final MemoryJournal journal = new MemoryJournal();

  private static GroupSpec group(String name, String... ids) {
    return new GroupSpec(name, Arrays.stream(ids)
        .map(id -> TaskSpec.builder(id, name).command("work", id).memoryBytes(64 * MIB).cpus(1)
        .set(TaskKeys.RETRIES, 0).build())
        .toList());
  }

  private RunSpec spec() {
    return new RunSpec("r", dir.toString(), config, List.of(group("g", "a", "b", "c"), group("later", "d")));
  }

  private Engine engine(FakeExecutor executor, Journal j) {
    return new Engine(spec(), new RunLayout(dir), executor, probe, clock, clock, RunListener.NONE).journal(j);
  }

  private static TaskId id(String s) {
    return TaskId.of(s);
  }

  private Engine interruptedRun(FakeExecutor executor) {
    journal.start("r", "spec", clock.instant());
    Engine engine = engine(executor, journal);
    engine.start();
    engine.interrupt("interrupted by SIGTERM");
    engine.drain();
    return engine;
  }

  @Test
  void anInterruptionTerminatesWhatRunsRecordsItInterruptedAndLeavesWhatWaitsPending() throws Exception {
    FakeExecutor executor = new FakeExecutor();
    Engine engine = interruptedRun(executor);

    assertThat(executor.terminations()).extracting(FakeExecutor.Termination::task).containsExactly(id("a"), id("b"));
    RunResult result = engine.result();
    assertThat(result).as("the run ended once its processes did").isNotNull();
    assertThat(result.report().status()).isEqualTo(RunStatus.INTERRUPTED);
    assertThat(result.report().groups().get(0).tasks()).extracting(t -> t.status())
        .containsExactly(TaskStatus.INTERRUPTED, TaskStatus.INTERRUPTED, TaskStatus.PENDING);
    assertThat(engine.state().task(id("a")).history().attempts().get(0).end().orElseThrow().outcome())
        .isEqualTo(Outcome.INTERRUPTED);
    assertThat(journal.replay().orElseThrow().run().status()).as("the journal keeps the run resumable").isEmpty();
    assertThat(Files.readString(dir.resolve("report.json"))).contains("\"status\" : \"INTERRUPTED\"");
  }

  @Test
  void aTaskThatFinishedWhileBerthWasStoppingKeepsItsSuccess() {
    FakeExecutor executor = new FakeExecutor().deferTerminations();
    journal.start("r", "spec", clock.instant());
    Engine engine = engine(executor, journal);
    engine.start();
    engine.interrupt("interrupted by SIGINT");
    engine.drain();

    executor.exit(id("a"), 0); // its own ending came before the termination took effect
    executor.deliverTerminations();
    engine.drain();

    assertThat(engine.state().task(id("a")).state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(engine.state().task(id("b")).state()).isEqualTo(TaskState.INTERRUPTED);
    assertThat(engine.result().report().status()).isEqualTo(RunStatus.INTERRUPTED);
  }

  @Test
  void aResumeRunsTheInterruptedTasksAgainWithoutSpendingARetryAndKeepsTheSuccesses() {
    FakeExecutor first = new FakeExecutor().deferTerminations();
    journal.start("r", "spec", clock.instant());
    Engine engine = engine(first, journal);
    engine.start();
    first.exit(id("a"), 0);
    engine.drain(); // a succeeded, c started in its place
    engine.interrupt("interrupted by SIGHUP");
    engine.drain();
    first.deliverTerminations();
    engine.drain();
    assertThat(engine.result().report().status()).isEqualTo(RunStatus.INTERRUPTED);

    MemoryJournal after = journal.reopen();
    FakeExecutor second = new FakeExecutor();
    Engine resumed = engine(second, after).resume(after.replay().orElseThrow());
    resumed.start();

    assertThat(second.transcript()).containsExactly("launch b#2", "launch c#2");
    second.exit(id("b"), 0);
    second.exit(id("c"), 0);
    resumed.drain();
    second.exit(id("d"), 0);
    resumed.drain();
    assertThat(resumed.result().report().status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(resumed.state().task(id("a")).history().attemptCount()).isEqualTo(1);
    assertThat(after.replay().orElseThrow().run().status()).contains(RunStatus.SUCCEEDED);
    assertThat(resumed.state().task(id("b")).history().events())
        .filteredOn(TaskEvent.Released.class::isInstance).hasSize(2);
  }

  @Test
  void endingAnOpenRunWithTasksLeftInterruptsItAndACancelAfterwardsStillEndsThemForGood() {
    FakeExecutor executor = new FakeExecutor().deferTerminations();
    journal.start("r", "spec", clock.instant());
    Engine engine = engine(executor, journal).keepOpen();
    engine.start();

    engine.end("the session was closed");
    engine.drain();
    engine.cancel("cancelled by berth cancel");
    engine.drain();
    executor.deliverTerminations();
    engine.drain();

    assertThat(engine.result().report().status()).as("a cancel is a final decision").isEqualTo(RunStatus.CANCELLED);
    assertThat(engine.result().report().totals().cancelled()).isEqualTo(4);
  }
}

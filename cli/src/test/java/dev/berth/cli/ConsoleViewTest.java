package dev.berth.cli;

import static dev.berth.testkit.TaskSpecs.run;
import static dev.berth.testkit.TaskSpecs.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.resources.Refusal;
import dev.berth.core.resources.Resource;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.RunState;
import dev.berth.testkit.Snapshots;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import dev.berth.testkit.FakeClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What the console says as a run goes on, when it is not a terminal. */
class ConsoleViewTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final FakeClock clock = new FakeClock(T0);
  private final ConsoleView view = new ConsoleView(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, false,
      clock);

  @Test
  void aGroupIsSummedUpOnceWhenItsLastTaskEndsWithTheCountsOfEveryTask() {
    RunState state = new RunState(run("r").group("g", task("a").build(), task("b").build(), task("c").build()).build());
    view.runStarted(state);

    cancel(state, "a");
    cancel(state, "b");
    String beforeTheLast = out();
    cancel(state, "c");

    assertThat(beforeTheLast).doesNotContain("group g:");
    assertThat(out().lines().filter(l -> l.startsWith("group g:")))
        .containsExactly("group g: 3 tasks: 0 succeeded, 3 cancelled in 0ms");
  }

  @Test
  void endingsThatComeAfterTheGroupEndedDoNotSumItUpAgain() {
    RunState state = new RunState(run("r").group("g", task("a").build(), task("b").build()).build());
    view.runStarted(state);
    cancel(state, "a");
    cancel(state, "b");

    view.taskEvent(state.task(TaskId.of("a")), new TaskEvent.Settled(T0, TaskState.CANCELLED, "told again"));

    assertThat(out().lines().filter(l -> l.startsWith("group g:"))).hasSize(1);
  }

  @Test
  void aLogSaysOnceWhyTasksHaveWaitedSecondsWithNothingStartedAndAgainWhenTheReasonChanges() {
    RunState state = new RunState(run("r").group("g", task("a").build(), task("b").build()).build());
    view.runStarted(state);

    view.decided(cpuGate(930));
    clock.advance(Duration.ofSeconds(3));
    view.decided(cpuGate(950));
    String early = out();
    clock.advance(Duration.ofSeconds(3));
    view.decided(cpuGate(940));
    clock.advance(Duration.ofSeconds(10));
    view.decided(cpuGate(990));
    view.probed(Snapshots.host().at(clock.instant()).build());
    clock.advance(Duration.ofSeconds(1));
    view.decided(new Decisions(List.of(), List.of(), Optional.of(
        new Refusal(Resource.MEMORY, "host", 4L << 30, 1L << 30, 0, "remain-limit.memory")), 2));

    assertThat(early).isEmpty();
    assertThat(out().lines()).containsExactly(
        "nothing started for 6.0s: waiting for cpu-utilization on host: other processes keep the CPUs 94.0% busy,"
            + " limit 80.0% [utilization-limit.cpu]",
        "nothing started for 17.0s: waiting for memory on host: asked 4 GiB, free 1 GiB [remain-limit.memory]");
  }

  @Test
  void aTaskStartingEndsTheQuietTimeALogWaitsOutBeforeSayingWhy() {
    RunState state = new RunState(run("r").group("g", task("a").build(), task("b").build()).build());
    view.runStarted(state);
    view.decided(cpuGate(930));
    clock.advance(Duration.ofSeconds(4));
    TaskEvent launch = new TaskEvent.Launched(clock.instant(), 1, Placement.cpu(1L << 20, 1000), 4242, false);
    view.taskEvent(state.task(TaskId.of("a")), launch);

    clock.advance(Duration.ofSeconds(4));
    view.decided(cpuGate(930));
    String quiet = out();
    clock.advance(Duration.ofSeconds(1));
    view.decided(cpuGate(930));

    assertThat(quiet).isEmpty();
    assertThat(out()).startsWith("nothing started for 5.0s: waiting for cpu-utilization");
  }

  private static Decisions cpuGate(long permille) {
    return new Decisions(List.of(), List.of(), Optional.of(
        new Refusal(Resource.CPU_UTILIZATION, "host", 800, permille, 0, "utilization-limit.cpu")), 2);
  }

  private void cancel(RunState state, String task) {
    TaskEvent event = new TaskEvent.Settled(T0, TaskState.CANCELLED, "cancelled by test");
    state.apply(TaskId.of(task), event);
    view.taskEvent(state.task(TaskId.of(task)), event);
  }

  private String out() {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}

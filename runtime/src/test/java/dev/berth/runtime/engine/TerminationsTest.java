package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.Reporting;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.RunState;
import dev.berth.protocol.ControlCommand;
import dev.berth.spi.Execution;
import dev.berth.testkit.FakeClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Terminations} on its own, through a hand-written {@link Terminations.Context}. */
class TerminationsTest {

  private static final TaskId RUNNING = TaskId.of("running");
  private static final TaskId WAITING = TaskId.of("waiting");

  private final FakeClock clock = new FakeClock();
  private final FakeRun run = new FakeRun(state());
  private final Terminations terminations = new Terminations(run);

  @Test
  void aProcessAskedToExitIsTerminatedWhenItIsStillAliveAfterTheGracePeriod() {
    Process process = new Process();
    run.executions.put(RUNNING, process);

    terminations.askToExit(new Decision.Exit(RUNNING, "no device will ever fit it"));

    assertThat(run.sent).containsExactly(ControlCommand.exit());
    assertThat(process.terminatedWith).isEmpty();
    run.graceOver();
    assertThat(process.terminatedWith).containsExactly(LiveExecutions.TERMINATE_GRACE_MILLIS);
    assertThat(run.executions.takeKill(RUNNING))
        .contains(new Decision.Kill(RUNNING, Outcome.FAILED, "no device will ever fit it"));
  }

  @Test
  void aProcessThatExitedWithinTheGracePeriodIsNotTerminated() {
    Process process = new Process();
    run.executions.put(RUNNING, process);

    terminations.askToExit(new Decision.Exit(RUNNING, "done with it"));
    process.alive = false;
    run.graceOver();

    assertThat(process.terminatedWith).isEmpty();
  }

  @Test
  void aCancelledRunKillsItsProcessesAndSettlesEveryTaskWithoutOneAsCancelled() {
    Process process = new Process();
    run.executions.put(RUNNING, process);

    terminations.cancelRun("cancelled by the user");
    terminations.settleCancelled();

    assertThat(terminations.runCancelled()).isTrue();
    assertThat(process.terminatedWith).containsExactly(LiveExecutions.TERMINATE_GRACE_MILLIS);
    assertThat(run.recorded).containsExactly(
        WAITING + " " + new TaskEvent.Settled(clock.instant(), TaskState.CANCELLED, "cancelled by the user"));
  }

  @Test
  void dependantsAreCancelledBeforeTheirParentsSoAClusterNeverSeesAParentGoFirst() {
    List<TaskSpec> specs = List.of(TaskSpec.builder("a-parent", "g").command("x").build(),
        TaskSpec.builder("m-child", "g").command("x").after(Dependency.allSucceeded(List.of(TaskId.of("a-parent"))))
            .build(),
        TaskSpec.builder("z-grandchild", "g").command("x")
            .after(Dependency.allSucceeded(List.of(TaskId.of("m-child")))).build());
    RunState state = new RunState(new RunSpec("r", "/runs/r", SchedulerConfig.builder().build(),
        List.of(new GroupSpec("g", specs)), false, "sim:24GiB", Reporting.NONE));
    state.started(clock.instant());
    FakeRun cluster = new FakeRun(state);
    List<String> order = new ArrayList<>();
    for (TaskSpec spec : specs) {
      state.apply(spec.id(), new TaskEvent.Released(clock.instant()));
      state.apply(spec.id(), new TaskEvent.Launched(clock.instant(), 1, new Placement(Placement.CLUSTER, 0, 0, 0), -1,
          false));
      cluster.executions.put(spec.id(), new Process() {
        @Override
        public void terminate(long graceMillis) {
          order.add(spec.id().value());
        }
      });
    }

    new Terminations(cluster).cancelMatching(List.of("*"), "cancelled by the user");
    assertThat(order).containsExactly("z-grandchild", "m-child", "a-parent");
    order.clear();
    new Terminations(cluster).cancelRun("cancelled by the user");
    assertThat(order).as("each is killed once, the first time").isEmpty();
    FakeRun again = new FakeRun(state);
    specs.forEach(spec -> again.executions.put(spec.id(), new Process() {
      @Override
      public void terminate(long graceMillis) {
        order.add(spec.id().value());
      }
    }));
    new Terminations(again).cancelRun("cancelled by the user");
    assertThat(order).containsExactly("z-grandchild", "m-child", "a-parent");
  }

  @Test
  void anUnknownTaskIsNotCancelled() {
    terminations.cancelTask(TaskId.of("nobody"), "cancelled by the user");

    assertThat(run.recorded).isEmpty();
  }

  private RunState state() {
    List<TaskSpec> specs = List.of(TaskSpec.builder(RUNNING.toString(), "g").command("x").build(),
        TaskSpec.builder(WAITING.toString(), "g").command("x").build());
    RunState state = new RunState(new RunSpec("r", "/runs/r", SchedulerConfig.builder().build(),
        List.of(new GroupSpec("g", specs)), false, "sim:24GiB", Reporting.NONE));
    state.started(clock.instant());
    state.apply(RUNNING, new TaskEvent.Released(clock.instant()));
    state.apply(RUNNING, new TaskEvent.Launched(clock.instant(), 1, new Placement(Placement.CPU, 0, 0, 0), 4242, false));
    return state;
  }

  /** The run around the terminations: what they record and send, and the grace periods they wait for. */
  private final class FakeRun implements Terminations.Context {
    private final RunState state;
    final LiveExecutions executions = new LiveExecutions();
    final List<String> recorded = new ArrayList<>();
    final List<ControlCommand> sent = new ArrayList<>();
    private final List<Runnable> afterGrace = new ArrayList<>();

    FakeRun(RunState state) {
      this.state = state;
    }

    void graceOver() {
      List<Runnable> due = List.copyOf(afterGrace);
      afterGrace.clear();
      due.forEach(Runnable::run);
    }

    @Override
    public RunState state() {
      return state;
    }

    @Override
    public Instant now() {
      return clock.instant();
    }

    @Override
    public void record(TaskId id, TaskEvent event) {
      state.apply(id, event);
      recorded.add(id + " " + event);
    }

    @Override
    public LiveExecutions executions() {
      return executions;
    }

    @Override
    public void send(TaskId id, ControlCommand command) {
      sent.add(command);
    }

    @Override
    public void afterGrace(Runnable step) {
      afterGrace.add(step);
    }
  }

  /** A task's process, alive until told otherwise. */
  private static class Process implements Execution {
    boolean alive = true;
    final List<Long> terminatedWith = new ArrayList<>();

    @Override
    public long pid() {
      return 4242;
    }

    @Override
    public boolean isAlive() {
      return alive;
    }

    @Override
    public void terminate(long graceMillis) {
      terminatedWith.add(graceMillis);
    }
  }
}

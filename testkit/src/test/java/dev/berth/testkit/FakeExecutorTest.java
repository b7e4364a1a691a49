package dev.berth.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.TaskId;
import dev.berth.spi.Execution;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class FakeExecutorTest {

  private static final TaskId A = TaskId.of("a");
  private static final TaskId B = TaskId.of("b");

  private final FakeExecutor fake = new FakeExecutor();
  private final List<String> exits = new ArrayList<>();

  @Test
  void exitCallsTheListenerOnTheCallingThread() throws Exception {
    Thread caller = Thread.currentThread();
    List<Thread> seenOn = new ArrayList<>();
    fake.launch(request(A, 1), code -> seenOn.add(Thread.currentThread()));

    fake.exit(A, 0);

    assertThat(seenOn).containsExactly(caller);
    assertThat(fake.isRunning(A)).isFalse();
  }

  @Test
  void theTranscriptTellsWhatHappenedInOrder() throws Exception {
    launch(A, 1);
    Execution b = launch(B, 1);
    fake.exit(A, 0);
    b.terminate(5_000);
    fake.failLaunchOf(A, "boom");
    assertThatThrownBy(() -> launch(A, 2)).isInstanceOf(LaunchException.class);

    assertThat(fake.transcript())
        .containsExactly("launch a#1", "launch b#1", "exit a 0", "terminate b", "exit b 143", "launch-failed a#2");
    assertThat(exits).containsExactly("a 0", "b 143");
  }

  @Test
  void launchesAreRecordedInOrderIncludingFailedOnes() throws Exception {
    launch(A, 1);
    fake.exit(A, 1);
    fake.failLaunchOf(A, "no");
    assertThatThrownBy(() -> launch(A, 2)).hasMessage("no");
    launch(B, 1);
    launch(A, 3);

    assertThat(fake.launches()).extracting(r -> r.task() + "#" + r.attempt())
        .containsExactly("a#1", "a#2", "b#1", "a#3");
    assertThat(fake.launched(A)).extracting(LaunchRequest::attempt).containsExactly(1, 2, 3);
    assertThat(fake.lastLaunch(A).attempt()).isEqualTo(3);
  }

  @Test
  void aFailedLaunchFailsOnlyOnceAndIsNeverReported() throws Exception {
    fake.failLaunchOf(A, "cannot start 'x': missing");

    assertThatThrownBy(() -> launch(A, 1))
        .isInstanceOf(LaunchException.class)
        .hasMessage("cannot start 'x': missing");
    assertThat(fake.isRunning(A)).isFalse();
    launch(A, 2);
    assertThat(fake.isRunning(A)).isTrue();
    assertThat(exits).isEmpty();
  }

  @Test
  void terminateRecordsTheCallAndExitsWith143AtOnce() throws Exception {
    Execution a = launch(A, 1);

    a.terminate(250);

    assertThat(fake.terminations()).containsExactly(new FakeExecutor.Termination(A, 1, 250));
    assertThat(a.isAlive()).isFalse();
    assertThat(exits).containsExactly("a 143");
  }

  @Test
  void deferredTerminationsExitOnlyWhenDelivered() throws Exception {
    fake.deferTerminations();
    Execution a = launch(A, 1);
    Execution b = launch(B, 1);
    b.terminate(100);
    a.terminate(100);
    a.terminate(100);
    assertThat(exits).isEmpty();
    assertThat(a.isAlive()).isTrue();

    fake.deliverTerminations();

    assertThat(exits).containsExactly("b 143", "a 143");
    assertThat(fake.terminations()).hasSize(3);
  }

  @Test
  void aProcessThatExitsBeforeDeliveryIsReportedOnce() throws Exception {
    fake.deferTerminations();
    launch(A, 1).terminate(100);
    fake.exit(A, 0);

    fake.deliverTerminations();

    assertThat(exits).containsExactly("a 0");
  }

  @Test
  void terminatingAnEndedProcessIsRecordedButReportsNothing() throws Exception {
    Execution a = launch(A, 1);
    fake.exit(A, 2);

    a.terminate(100);

    assertThat(exits).containsExactly("a 2");
    assertThat(fake.transcript()).containsExactly("launch a#1", "exit a 2", "terminate a");
  }

  @Test
  void terminatingAnOldAttemptLeavesTheNewOneRunning() throws Exception {
    Execution first = launch(A, 1);
    fake.exit(A, 1);
    Execution second = launch(A, 2);

    first.terminate(100);

    assertThat(second.isAlive()).isTrue();
    assertThat(exits).containsExactly("a 1");
  }

  @Test
  void exitingATaskWithoutARunningProcessIsAnError() {
    assertThatThrownBy(() -> fake.exit(A, 0)).isInstanceOf(IllegalStateException.class).hasMessageContaining("a");
  }

  @Test
  void launchingATaskThatIsStillRunningIsAnError() throws Exception {
    launch(A, 1);

    assertThatThrownBy(() -> launch(A, 2)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void eachProcessGetsItsOwnPositivePid() throws Exception {
    Execution a = launch(A, 1);
    Execution b = launch(B, 1);

    assertThat(a.pid()).isPositive().isNotEqualTo(b.pid());
  }

  @Test
  void aClosedExecutorRefusesLaunches() {
    fake.close();

    assertThat(fake.isClosed()).isTrue();
    assertThatThrownBy(() -> launch(A, 1)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void theListenerMayLaunchAgainFromInsideTheExit() throws Exception {
    fake.launch(request(A, 1), code -> {
      try {
        launch(A, 2);
      } catch (LaunchException e) {
        throw new AssertionError(e);
      }
    });

    fake.exit(A, 1);

    assertThat(fake.running()).containsExactly(A);
    assertThat(fake.lastLaunch(A).attempt()).isEqualTo(2);
  }

  private Execution launch(TaskId task, int attempt) throws LaunchException {
    return fake.launch(request(task, attempt), code -> exits.add(task + " " + code));
  }

  private static LaunchRequest request(TaskId task, int attempt) {
    Path base = Path.of("runs", task.value());
    return new LaunchRequest(
        task, attempt, List.of("prog"), new TreeMap<>(), base, base.resolve("out"), base.resolve("err"));
  }
}

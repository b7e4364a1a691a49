package dev.berth.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskHistory;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class EndingsTest {

  private static final Instant AT = Instant.parse("2026-01-01T00:00:10Z");

  @Test
  void exitZeroSucceeds() {
    TaskEvent.Ended e = Endings.exited(AT, 0);
    assertThat(e.at()).isEqualTo(AT);
    assertThat(e.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(e.exitCode()).isZero();
    assertThat(e.message()).isNull();
    assertThat(e.target()).isEqualTo(TaskState.SUCCEEDED);
  }

  @Test
  void aNonZeroExitFailsNamingTheCode() {
    TaskEvent.Ended e = Endings.exited(AT, 3);
    assertThat(e.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(e.exitCode()).isEqualTo(3);
    assertThat(e.message()).isEqualTo("exited with code 3");
    assertThat(e.target()).isEqualTo(TaskState.FAILED);
  }

  @Test
  void exit137IsAKillBySigkill() {
    TaskEvent.Ended e = Endings.exited(AT, 137);
    assertThat(e.outcome()).isEqualTo(Outcome.KILLED);
    assertThat(e.exitCode()).isEqualTo(137);
    assertThat(e.message()).isEqualTo("killed by signal 9 (SIGKILL)");
    assertThat(e.target()).isEqualTo(TaskState.FAILED);
  }

  @ParameterizedTest(name = "exit {0} -> {1}")
  @CsvSource(delimiter = '|', textBlock = """
      129 | killed by signal 1 (SIGHUP)
      130 | killed by signal 2 (SIGINT)
      134 | killed by signal 6 (SIGABRT)
      139 | killed by signal 11 (SIGSEGV)
      143 | killed by signal 15 (SIGTERM)
      144 | killed by signal 16
      192 | killed by signal 64
      """)
  void exitsAbove128AreDeathsBySignal(int exitCode, String message) {
    TaskEvent.Ended e = Endings.exited(AT, exitCode);
    assertThat(e.outcome()).as("exit %d = 128 + %d", exitCode, exitCode - 128).isEqualTo(Outcome.KILLED);
    assertThat(e.message()).isEqualTo(message);
    assertThat(e.target()).isEqualTo(TaskState.FAILED);
  }

  @ParameterizedTest(name = "exit {0} is an ordinary failure")
  @ValueSource(ints = {1, 2, 127, 128, 193, 255, -1})
  void otherNonZeroExitsAreFailures(int exitCode) {
    TaskEvent.Ended e = Endings.exited(AT, exitCode);
    assertThat(e.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(e.message()).isEqualTo("exited with code " + exitCode);
    assertThat(e.target()).isEqualTo(TaskState.FAILED);
  }

  @Test
  void aCancelledAttemptKeepsTheReasonAndExitCode() {
    TaskEvent.Ended e = Endings.cancelled(AT, 143, "run cancelled by user");
    assertThat(e.outcome()).isEqualTo(Outcome.CANCELLED);
    assertThat(e.exitCode()).isEqualTo(143);
    assertThat(e.message()).isEqualTo("run cancelled by user");
    assertThat(e.target()).isEqualTo(TaskState.CANCELLED);
    assertThat(Endings.cancelled(AT, null, "x").exitCode()).isNull();
  }

  @Test
  void aStartFailureHasNoExitCodeAndSaysItCouldNotStart() {
    TaskEvent.Ended e = Endings.startFailed(AT, "No such file or directory: trian.py");
    assertThat(e.outcome()).isEqualTo(Outcome.START_FAILED);
    assertThat(e.exitCode()).isNull();
    assertThat(e.message()).isEqualTo("could not start: No such file or directory: trian.py");
    assertThat(e.target()).isEqualTo(TaskState.FAILED);
  }

  @Test
  void everyEndingIsALegalNextStepForARunningTask() {
    for (TaskEvent.Ended ending : new TaskEvent.Ended[] {
        Endings.exited(AT, 0), Endings.exited(AT, 1), Endings.exited(AT, 137),
        Endings.cancelled(AT, 143, "cancel"), Endings.startFailed(AT, "nope")}) {
      TaskHistory h = new TaskHistory(TaskId.of("t"));
      h.append(new TaskEvent.Released(AT.minusSeconds(2)));
      h.append(new TaskEvent.Launched(AT.minusSeconds(1), 1, Placement.cpu(0, 1000), 1, false));
      h.append(ending);
      assertThat(h.state()).isEqualTo(ending.target());
      assertThat(h.attempts()).singleElement().satisfies(a -> assertThat(a.end()).contains(ending));
    }
  }

  @Test
  void aStartFailureCanEndAReadyTaskThatNeverGotAProcess() {
    TaskHistory h = new TaskHistory(TaskId.of("t"));
    h.append(new TaskEvent.Released(AT.minusSeconds(1)));
    h.append(Endings.startFailed(AT, "permission denied"));
    assertThat(h.state()).isEqualTo(TaskState.FAILED);
    assertThat(h.attempts()).isEmpty();
    assertThat(h.finalReason()).contains("could not start: permission denied");
  }
}

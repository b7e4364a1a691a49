package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.spi.JobsOnExit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

class OnExitTest {

  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(printed, true);

  @Test
  void leaveLeavesTheJobsRunningWithoutAsking() {
    assertThat(OnExit.leaveJobs(JobsOnExit.LEAVE, out)).isTrue();
    assertThat(printed.toString()).isEmpty();
  }

  @Test
  void cancelCancelsThemWithoutAsking() {
    assertThat(OnExit.leaveJobs(JobsOnExit.CANCEL, out)).isFalse();
    assertThat(printed.toString()).isEmpty();
  }

  @Test
  void askWithoutATerminalCancelsBecauseNobodyCanAnswer() {
    assertThat(System.console()).as("tests run without a terminal").isNull();

    assertThat(OnExit.leaveJobs(JobsOnExit.ASK, out)).isFalse();
  }
}

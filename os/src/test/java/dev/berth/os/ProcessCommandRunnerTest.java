package dev.berth.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;

@DisabledOnOs(OS.WINDOWS)
class ProcessCommandRunnerTest {

  private final ProcessCommandRunner runner = new ProcessCommandRunner();

  @Test
  void bothOutputsAndTheExitCodeAreReturned() throws IOException {
    CommandRunner.Result r = runner.run(List.of("sh", "-c", "echo out; echo err >&2; exit 3"), Duration.ofSeconds(10));
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.stdout()).isEqualTo("out\n");
    assertThat(r.stderr()).isEqualTo("err\n");
    assertThat(r.timedOut()).isFalse();
    assertThat(r.succeeded()).isFalse();
  }

  @Test
  void variablesHoldingBerthsSecretsAreNotInheritedSoSbatchCannotExportThem() throws IOException {
    // HOME stands for a variable such as the one smtp.password-env names: set in Berth's environment.
    ProcessCommandRunner withholding = new ProcessCommandRunner(java.util.Set.of("HOME"));

    CommandRunner.Result r = withholding.run(List.of("sh", "-c", "echo ${HOME-withheld}"), Duration.ofSeconds(10));

    assertThat(System.getenv("HOME")).isNotNull();
    assertThat(r.stdout()).isEqualTo("withheld\n");
  }

  @Test
  void argumentsAreNotInterpretedByAShell() throws IOException {
    CommandRunner.Result r = runner.run(List.of("echo", "$HOME", "a;b"), Duration.ofSeconds(10));
    assertThat(r.stdout()).isEqualTo("$HOME a;b\n");
    assertThat(r.succeeded()).isTrue();
  }

  @Test
  void aCommandPastItsTimeoutIsKilledAndReported() throws IOException {
    long start = System.nanoTime();
    // The timeout leaves a loaded machine ample time to print before the kill; the sleep far outlasts both.
    CommandRunner.Result r = runner.run(List.of("sh", "-c", "echo started; exec sleep 600"), Duration.ofSeconds(5));
    long tookSeconds = (System.nanoTime() - start) / 1_000_000_000;

    assertThat(r.timedOut()).isTrue();
    assertThat(r.exitCode()).isEqualTo(-1);
    assertThat(r.stdout()).isEqualTo("started\n");
    assertThat(tookSeconds).as("killed at the 5 s timeout, not after the 600 s sleep").isLessThan(300);
  }

  @Test
  void largeOutputOnBothStreamsDoesNotDeadlock() throws IOException {
    CommandRunner.Result r = runner.run(
        List.of("sh", "-c", "yes e | head -c 300000 >&2; yes o | head -c 300000"),
        Duration.ofSeconds(20));
    assertThat(r.timedOut()).isFalse();
    assertThat(r.stdout()).hasSize(300_000);
    assertThat(r.stderr()).hasSize(300_000);
  }

  @Test
  void aMissingProgramIsAnIoException() {
    assertThatThrownBy(() -> runner.run(List.of("berth-no-such-program-xyz"), Duration.ofSeconds(1)))
        .isInstanceOf(IOException.class);
  }

  @Test
  void anEmptyCommandIsRejected() {
    assertThatThrownBy(() -> runner.run(List.of(), Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
  }
}

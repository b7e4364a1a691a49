package dev.berth.slurm;

import static dev.berth.slurm.Recordings.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class SlurmEndingsTest {

  private static final SlurmJobId JOB = SlurmJobId.of("17");
  private static final OptionalInt NO_FILE = OptionalInt.empty();

  @Test
  void theExitCodeFileGivesTheProgramsOwnCode() {
    SlurmEnding ending = SlurmEndings.of(JOB, SlurmState.FAILED, "NonZeroExitCode", new SlurmExit(3, 0), OptionalInt.of(3), false, false);

    assertThat(ending.exitCode()).isEqualTo(3);
    assertThat(ending.fromExitCodeFile()).isTrue();
    assertThat(ending.outcome()).isEqualTo(SlurmOutcome.FAILED);
    assertThat(ending.reason()).isEqualTo("Slurm job 17 FAILED (NonZeroExitCode): exited with 3");
  }

  @Test
  void withoutTheFileSlurmsCodeIsUsed() {
    assertThat(code(SlurmState.COMPLETED, new SlurmExit(0, 0))).isZero();
    assertThat(code(SlurmState.FAILED, new SlurmExit(3, 0))).isEqualTo(3);
    assertThat(code(SlurmState.FAILED, new SlurmExit(0, 6))).isEqualTo(134);
  }

  @Test
  void aFailureSlurmReportsWithoutACodeIsStillNotZero() {
    assertThat(code(SlurmState.FAILED, SlurmExit.NONE)).isEqualTo(1);
  }

  @Test
  void slurmSideEndingsHaveTheirOwnCodes() {
    assertThat(code(SlurmState.OUT_OF_MEMORY, SlurmExit.NONE)).isEqualTo(137);
    assertThat(code(SlurmState.TIMEOUT, new SlurmExit(0, 15))).isEqualTo(143);
    assertThat(code(SlurmState.DEADLINE, SlurmExit.NONE)).isEqualTo(143);
    assertThat(code(SlurmState.CANCELLED, new SlurmExit(0, 15))).isEqualTo(143);
    assertThat(code(SlurmState.NODE_FAIL, SlurmExit.NONE)).isEqualTo(75);
    assertThat(code(SlurmState.BOOT_FAIL, SlurmExit.NONE)).isEqualTo(75);
    assertThat(code(SlurmState.PREEMPTED, SlurmExit.NONE)).isEqualTo(75);
  }

  @Test
  void aKillBySignal9WithSlurmsMemoryMessageIsAnOutOfMemoryKill() {
    SlurmEnding ending = SlurmEndings.of(JOB, SlurmState.FAILED, "JobLaunchFailure", new SlurmExit(0, 9), NO_FILE, true, false);

    assertThat(ending.outcome()).isEqualTo(SlurmOutcome.HOST_OOM);
    assertThat(ending.exitCode()).isEqualTo(137);
    assertThat(ending.reason()).isEqualTo("Slurm job 17 FAILED (JobLaunchFailure): killed for using more memory than"
        + " it asked for (Exceeded job memory limit)");
  }

  @Test
  void aTimeOutAndACancellationAreToldApart() {
    SlurmEnding timeout = SlurmEndings.of(JOB, SlurmState.TIMEOUT, "TimeLimit", new SlurmExit(0, 15), NO_FILE, false, false);
    SlurmEnding cancel = SlurmEndings.of(JOB, SlurmState.CANCELLED, "None", new SlurmExit(0, 15), NO_FILE, false, false);

    assertThat(timeout.outcome()).isEqualTo(SlurmOutcome.TIMED_OUT);
    assertThat(timeout.reason()).isEqualTo("Slurm job 17 TIMEOUT (TimeLimit): killed at its time limit");
    assertThat(cancel.outcome()).isEqualTo(SlurmOutcome.CANCELLED);
    assertThat(cancel.reason()).isEqualTo("Slurm job 17 CANCELLED: cancelled");
  }

  @Test
  void aDependantSlurmCancelledBecauseItsDependencyCanNeverBeMetNeverRan() {
    SlurmEnding never = SlurmEndings.of(JOB, SlurmState.CANCELLED, "DependencyNeverSatisfied", SlurmExit.NONE, NO_FILE,
        false, true);

    assertThat(never.outcome()).isEqualTo(SlurmOutcome.UPSTREAM_NOT_MET);
    assertThat(never.exitCode()).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(never.countsAgainstRetries()).isFalse();
    assertThat(never.reason()).isEqualTo(
        "Slurm job 17 CANCELLED (DependencyNeverSatisfied): cancelled by Slurm because a dependency can never be met");
  }

  @Test
  void infrastructureFailuresDoNotCountAgainstTheRetries() {
    SlurmEnding node = SlurmEndings.of(JOB, SlurmState.NODE_FAIL, "None", SlurmExit.NONE, NO_FILE, false, false);

    assertThat(node.outcome()).isEqualTo(SlurmOutcome.INFRASTRUCTURE);
    assertThat(node.countsAgainstRetries()).isFalse();
    assertThat(node.reason()).isEqualTo("Slurm job 17 NODE_FAIL: a node of the job failed; run it again");
    assertThat(SlurmEndings.of(JOB, SlurmState.PREEMPTED, "", SlurmExit.NONE, NO_FILE, false, false).reason())
        .endsWith("preempted by another job; run it again");
    assertThat(SlurmEndings.of(JOB, SlurmState.TIMEOUT, "", SlurmExit.NONE, NO_FILE, false, false).countsAgainstRetries()).isTrue();
  }

  @Test
  void aForgottenJobEndsWithItsFileOrIsLost() {
    SlurmEnding wrote = SlurmEndings.forgotten(JOB, OptionalInt.of(0), false);
    SlurmEnding lost = SlurmEndings.forgotten(JOB, NO_FILE, false);

    assertThat(wrote.outcome()).isEqualTo(SlurmOutcome.SUCCEEDED);
    assertThat(wrote.state()).isEqualTo(SlurmState.UNKNOWN);
    assertThat(SlurmEndings.forgotten(JOB, OptionalInt.of(137), true).outcome()).isEqualTo(SlurmOutcome.HOST_OOM);
    assertThat(SlurmEndings.forgotten(JOB, OptionalInt.of(2), false).outcome()).isEqualTo(SlurmOutcome.FAILED);
    assertThat(lost.outcome()).isEqualTo(SlurmOutcome.INFRASTRUCTURE);
    assertThat(lost.exitCode()).isEqualTo(75);
    assertThat(lost.reason()).endsWith("wrote no exit code: lost");
  }

  @Test
  void slurmsMemoryMessagesAreRecognisedAndOthersAreNot() {
    assertThat(SlurmEndings.mentionsMemoryKill(read("oom-stderr.txt"))).isTrue();
    assertThat(SlurmEndings.mentionsMemoryKill("slurmstepd: error: Detected 1 oom-kill event(s) in StepId=5.batch.")).isTrue();
    assertThat(SlurmEndings.mentionsMemoryKill(read("cancel-stdout.txt"))).isFalse();
    assertThat(SlurmEndings.mentionsMemoryKill(read("timeout-stdout.txt"))).isFalse();
  }

  @Test
  void aRunningJobHasNoEnding() {
    assertThatThrownBy(() -> SlurmEndings.of(JOB, SlurmState.RUNNING, "None", SlurmExit.NONE, NO_FILE, false, false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static int code(SlurmState state, SlurmExit exit) {
    return SlurmEndings.of(JOB, state, "None", exit, NO_FILE, false, false).exitCode();
  }
}

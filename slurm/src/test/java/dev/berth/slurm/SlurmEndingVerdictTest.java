package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.ClusterVerdict.Kind;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SlurmEndingVerdictTest {

  private static final SlurmJobId JOB = SlurmJobId.of("23_1");

  @Test
  void clusterSideEndingsHaveAVerdictWithTheEndingsReason() {
    assertThat(verdict(SlurmOutcome.INFRASTRUCTURE, false)).contains(new ClusterVerdict(Kind.INFRASTRUCTURE, "why"));
    assertThat(verdict(SlurmOutcome.HOST_OOM, false)).map(ClusterVerdict::kind).contains(Kind.HOST_OOM);
    assertThat(verdict(SlurmOutcome.TIMED_OUT, false)).map(ClusterVerdict::kind).contains(Kind.TIMED_OUT);
    assertThat(verdict(SlurmOutcome.UPSTREAM_NOT_MET, false)).map(ClusterVerdict::kind).contains(Kind.UPSTREAM_NOT_MET);
  }

  @Test
  void aCancellationIsAVerdictOnlyWhenBerthDidNotAskForIt() {
    assertThat(verdict(SlurmOutcome.CANCELLED, false)).map(ClusterVerdict::kind).contains(Kind.CANCELLED);
    assertThat(verdict(SlurmOutcome.CANCELLED, true)).isEmpty();
  }

  @Test
  void aSuccessHasNothingToAddAndAFailureSaysItWasNoMemoryKill() {
    assertThat(verdict(SlurmOutcome.SUCCEEDED, false)).isEmpty();
    assertThat(verdict(SlurmOutcome.FAILED, false)).map(ClusterVerdict::kind).contains(Kind.FAILED);
  }

  @Test
  void aMemoryKillOrTimeOutAfterBerthAskedToCancelIsStillTold() {
    assertThat(verdict(SlurmOutcome.HOST_OOM, true)).map(ClusterVerdict::kind).contains(Kind.HOST_OOM);
  }

  private static Optional<ClusterVerdict> verdict(SlurmOutcome outcome, boolean cancelledByBerth) {
    return new SlurmEnding(JOB, SlurmState.UNKNOWN, outcome, 1, false, "why").verdict(cancelledByBerth);
  }
}

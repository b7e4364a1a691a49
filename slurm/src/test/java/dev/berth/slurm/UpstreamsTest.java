package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.slurm.Upstreams.Decision;
import dev.berth.slurm.Upstreams.NeverMet;
import dev.berth.slurm.Upstreams.Parent;
import dev.berth.slurm.Upstreams.Submit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UpstreamsTest {

  private static final Parent LIVE_12 = live("12");
  private static final Parent LIVE_13 = live("13");

  @Test
  void liveParentsBecomeTheDependency() {
    assertThat(after(Upstreams.decide(List.of(LIVE_12, LIVE_13), true, true, false))).isEqualTo("afterok:12:13");
    assertThat(after(Upstreams.decide(List.of(LIVE_12, LIVE_13), false, true, false))).isEqualTo("afterok:12?afterok:13");
  }

  @Test
  void anEndedParentThatSatisfiesTheEdgeIsLeftOut() {
    Decision d = Upstreams.decide(List.of(ended("11", SlurmOutcome.SUCCEEDED), LIVE_12), true, true, false);

    assertThat(after(d)).isEqualTo("afterok:12");
  }

  @Test
  void whenEveryParentEndedAndSatisfiesTheEdgeTheAttemptIsSubmittedWithoutADependency() {
    Decision d = Upstreams.decide(List.of(ended("11", SlurmOutcome.SUCCEEDED), ended("12", SlurmOutcome.SUCCEEDED)),
        true, true, false);

    assertThat(d).isEqualTo(new Submit(Optional.empty()));
  }

  @Test
  void aFailedParentOfAnEdgeOnSuccessCanNeverBeMet() {
    Decision d = Upstreams.decide(List.of(ended("11", SlurmOutcome.FAILED), LIVE_12), true, true, false);

    assertThat(d).isEqualTo(new NeverMet("Slurm job 11 ended FAILED, which a dependency on success does not accept"));
  }

  @Test
  void anyOneSatisfiedParentIsEnoughForAnAnyOfEdge() {
    Decision d = Upstreams.decide(List.of(ended("11", SlurmOutcome.SUCCEEDED), LIVE_12), false, true, false);

    assertThat(d).isEqualTo(new Submit(Optional.empty()));
  }

  @Test
  void anAnyOfEdgeWaitsForTheLiveParentsWhenTheEndedOnesDidNotSatisfyIt() {
    Decision d = Upstreams.decide(List.of(ended("11", SlurmOutcome.FAILED), LIVE_12, LIVE_13), false, true, false);

    assertThat(after(d)).isEqualTo("afterok:12?afterok:13");
  }

  @Test
  void anAnyOfEdgeWhoseParentsAllEndedUnsatisfiedCanNeverBeMet() {
    Decision d = Upstreams.decide(List.of(ended("11", SlurmOutcome.FAILED), ended("12", SlurmOutcome.TIMED_OUT)),
        false, true, false);

    assertThat(d).isInstanceOf(NeverMet.class);
  }

  @Test
  void memoryKillsAndTimeOutsAreFailuresButCancellationsAndClusterFailuresSatisfyNothing() {
    for (SlurmOutcome failure : List.of(SlurmOutcome.FAILED, SlurmOutcome.HOST_OOM, SlurmOutcome.TIMED_OUT)) {
      assertThat(Upstreams.decide(List.of(ended("11", failure)), true, false, true)).isEqualTo(new Submit(Optional.empty()));
    }
    for (SlurmOutcome nothing : List.of(SlurmOutcome.CANCELLED, SlurmOutcome.INFRASTRUCTURE,
        SlurmOutcome.UPSTREAM_NOT_MET)) {
      assertThat(Upstreams.decide(List.of(ended("11", nothing)), true, true, true)).as(nothing.name())
          .isInstanceOf(NeverMet.class);
    }
  }

  private static String after(Decision decision) {
    assertThat(decision).isInstanceOf(Submit.class);
    return ((Submit) decision).after().orElseThrow().toSlurm();
  }

  private static Parent live(String id) {
    return new Parent("Slurm job " + id, Optional.of(SlurmJobId.of(id)), Optional.empty());
  }

  private static Parent ended(String id, SlurmOutcome outcome) {
    return new Parent("Slurm job " + id, Optional.of(SlurmJobId.of(id)), Optional.of(outcome));
  }
}

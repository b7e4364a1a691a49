package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.at;
import static dev.berth.core.scheduling.SchedulingFixtures.end;
import static dev.berth.core.scheduling.SchedulingFixtures.group;
import static dev.berth.core.scheduling.SchedulingFixtures.host;
import static dev.berth.core.scheduling.SchedulingFixtures.id;
import static dev.berth.core.scheduling.SchedulingFixtures.startedRun;
import static dev.berth.core.scheduling.SchedulingFixtures.stateOf;
import static dev.berth.core.scheduling.SchedulingFixtures.unlimited;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Retries of ordinary failures: the budget, the delays (through wakeAt) and the start order. */
class SchedulerRetryTest {

  private static final SchedulerConfig ROOMY = unlimited().build();
  private static final HostSnapshot IDLE = host(T0, 8, 16 * GIB, 16 * GIB);
  private static final HostSnapshot ONE_CPU = host(T0, 1, 16 * GIB, 16 * GIB);
  private final Scheduler scheduler = new Scheduler(ROOMY);

  private static Duration secs(long s) {
    return Duration.ofSeconds(s);
  }

  private static TaskSpec.Builder t(String id) {
    return TaskSpec.builder(id, "g").command("run", id).cpus(1);
  }

  private static RunState state(TaskSpec.Builder... tasks) {
    return startedRun(ROOMY, false, group("g", tasks));
  }

  private Decisions pass(RunState s, HostSnapshot host, Instant at) {
    return SchedulingFixtures.pass(scheduler, s, host, at);
  }

  private Decisions pass(RunState s, Instant at) {
    return pass(s, IDLE, at);
  }

  private static List<String> started(Decisions d) {
    return d.starts().stream().map(x -> x.task().value() + "#" + x.attempt()).toList();
  }

  @Test
  void aFailedAttemptIsRetriedAfterTheDelayAndTheDelayGrowsByTheBackoff() {
    RunState s = state(t("a").set(TaskKeys.RETRIES, 2).set(TaskKeys.RETRY_DELAY, secs(10)).set(TaskKeys.RETRY_BACKOFF, 2.0));
    assertThat(started(pass(s, at(0)))).containsExactly("a#1");

    TaskEvent.Ended first = end(s, "a", 1, at(1));
    assertThat(first.target()).isEqualTo(TaskState.READY);
    assertThat(first.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(first.message()).isEqualTo("exited with code 1; retry 1 of 2 in 10.0s");

    Decisions waiting = pass(s, at(1));
    assertThat(waiting.starts()).isEmpty();
    assertThat(waiting.wakeAt()).contains(at(11));
    assertThat(pass(s, at(10.999)).starts()).isEmpty();
    assertThat(started(pass(s, at(11)))).containsExactly("a#2");

    TaskEvent.Ended second = end(s, "a", 2, at(12));
    assertThat(second.message()).isEqualTo("exited with code 2; retry 2 of 2 in 20.0s");
    assertThat(pass(s, at(12)).wakeAt()).contains(at(32));
    assertThat(pass(s, at(31.999)).starts()).isEmpty();
    assertThat(started(pass(s, at(32)))).containsExactly("a#3");

    TaskEvent.Ended third = end(s, "a", 3, at(33));
    assertThat(third.target()).as("budget used up").isEqualTo(TaskState.FAILED);
    assertThat(third.message()).isEqualTo("exited with code 3");
    assertThat(pass(s, at(100)).actions()).isEmpty();
    assertThat(s.task(id("a")).history().attempts()).hasSize(3);
    assertThat(s.isFinished()).isTrue();
  }

  @Test
  void withoutADelayTheRetryStartsInTheVeryNextPass() {
    RunState s = state(t("a").set(TaskKeys.RETRIES, 1));
    pass(s, at(0));

    TaskEvent.Ended e = end(s, "a", 1, at(1));

    assertThat(e.message()).isEqualTo("exited with code 1; retry 1 of 1");
    Decisions d = pass(s, at(1));
    assertThat(started(d)).containsExactly("a#2");
  }

  @Test
  void aSuccessfulRetryEndsTheTaskAsSucceeded() {
    RunState s = state(t("a").set(TaskKeys.RETRIES, 3));
    pass(s, at(0));
    end(s, "a", 1, at(1));
    pass(s, at(1));

    end(s, "a", 0, at(2));

    assertThat(stateOf(s, "a")).isEqualTo(TaskState.SUCCEEDED);
    assertThat(s.task(id("a")).history().attempts()).extracting(a -> a.end().get().outcome())
        .containsExactly(Outcome.FAILED, Outcome.SUCCEEDED);
  }

  @Test
  void aTaskWithoutRetriesFailsOnItsFirstFailure() {
    RunState s = state(t("a"));
    pass(s, at(0));

    assertThat(end(s, "a", 1, at(1)).target()).isEqualTo(TaskState.FAILED);
  }

  @Test
  void deathBySignalIsAnOrdinaryFailureAndIsRetried() {
    RunState s = state(t("a").set(TaskKeys.RETRIES, 1));
    pass(s, at(0));

    TaskEvent.Ended e = end(s, "a", 137, at(1));

    assertThat(e.outcome()).isEqualTo(Outcome.KILLED);
    assertThat(e.target()).isEqualTo(TaskState.READY);
    assertThat(e.message()).isEqualTo("killed by signal 9 (SIGKILL); retry 1 of 1");
  }

  @Test
  void aStartFailureIsAnOrdinaryFailureAndIsRetried() {
    RunState s = state(t("a").set(TaskKeys.RETRIES, 1).set(TaskKeys.RETRY_DELAY, secs(5)));
    pass(s, at(0));

    TaskEvent.Ended e = Retries.retryIfAllowed(s.task(id("a")), Endings.startFailed(at(0), "no such file"));
    s.apply(id("a"), e);

    assertThat(e.target()).isEqualTo(TaskState.READY);
    assertThat(e.message()).isEqualTo("could not start: no such file; retry 1 of 1 in 5.0s");
    assertThat(pass(s, at(0)).wakeAt()).contains(at(5));
    assertThat(started(pass(s, at(5)))).containsExactly("a#2");
  }

  @Test
  void anAttemptKilledForItsTimeoutUsesTheBudget() {
    RunState s = state(t("a").set(TaskKeys.RETRIES, 1).timeout(secs(30)));
    pass(s, at(0));
    Decision.Kill kill = new Decision.Kill(id("a"), Outcome.TIMED_OUT, "ran longer than its timeout of 30.0s");

    TaskEvent.Ended first = Retries.ending(s.task(id("a")), at(30), 143, Optional.of(kill));
    s.apply(id("a"), first);
    pass(s, at(30));
    TaskEvent.Ended second = Retries.ending(s.task(id("a")), at(60), 143, Optional.of(kill));
    s.apply(id("a"), second);

    assertThat(first.target()).isEqualTo(TaskState.READY);
    assertThat(first.outcome()).isEqualTo(Outcome.TIMED_OUT);
    assertThat(first.message()).isEqualTo("ran longer than its timeout of 30.0s; retry 1 of 1");
    assertThat(second.target()).isEqualTo(TaskState.TIMED_OUT);
    assertThat(second.exitCode()).isEqualTo(143);
    assertThat(stateOf(s, "a")).isEqualTo(TaskState.TIMED_OUT);
  }

  @Test
  void aCancelledAttemptIsNeverRetried() {
    RunState s = state(t("a").set(TaskKeys.RETRIES, 5));
    pass(s, at(0));

    TaskEvent.Ended e = Retries.ending(s.task(id("a")), at(1), 143,
        Optional.of(new Decision.Kill(id("a"), Outcome.CANCELLED, "cancelled by you")));
    s.apply(id("a"), e);

    assertThat(e.target()).isEqualTo(TaskState.CANCELLED);
    assertThat(e.message()).isEqualTo("cancelled by you");
    assertThat(pass(s, at(1)).actions()).isEmpty();
  }

  @Test
  void theDelayIsCappedByRetryDelayMax() {
    RunState s = state(t("a").set(TaskKeys.RETRIES, 4).set(TaskKeys.RETRY_DELAY, secs(4)).set(TaskKeys.RETRY_BACKOFF, 3.0).set(TaskKeys.RETRY_DELAY_MAX, secs(20)));
    pass(s, at(0));
    double now = 0;
    List<Double> expectedWaits = List.of(4.0, 12.0, 20.0, 20.0);
    for (double wait : expectedWaits) {
      now += 1;
      end(s, "a", 1, at(now));
      assertThat(pass(s, at(now)).wakeAt()).as("wait after failure at %s", now).contains(at(now + wait));
      now += wait;
      assertThat(pass(s, at(now)).starts()).hasSize(1);
    }
    now += 1;
    end(s, "a", 1, at(now));
    assertThat(stateOf(s, "a")).isEqualTo(TaskState.FAILED);
    assertThat(s.task(id("a")).history().attempts()).hasSize(5);
  }

  @Test
  void wakeAtIsTheEarliestOfSeveralRetryDelays() {
    RunState s = state(t("slow").set(TaskKeys.RETRIES, 1).set(TaskKeys.RETRY_DELAY, secs(9)), t("quick").set(TaskKeys.RETRIES, 1).set(TaskKeys.RETRY_DELAY, secs(3)));
    pass(s, at(0));
    end(s, "slow", 1, at(1));
    end(s, "quick", 1, at(2));

    Decisions d = pass(s, at(2));

    assertThat(d.wakeAt()).contains(at(5));
    assertThat(d.starts()).isEmpty();
  }

  @Test
  void aRetriedTaskKeepsItsPriorityAheadOfLowerOnes() {
    RunState s = state(t("low").priority(0), t("high").priority(5).set(TaskKeys.RETRIES, 1), t("mid").priority(3));
    assertThat(started(pass(s, ONE_CPU, at(0)))).containsExactly("high#1");

    end(s, "high", 1, at(1));
    assertThat(started(pass(s, ONE_CPU, at(1)))).containsExactly("high#2");

    end(s, "high", 0, at(2));
    assertThat(started(pass(s, ONE_CPU, at(2)))).containsExactly("mid#1");
    end(s, "mid", 0, at(3));
    assertThat(started(pass(s, ONE_CPU, at(3)))).containsExactly("low#1");
  }

  @Test
  void aRetriedTaskKeepsItsSubmissionPlaceAmongEqualPriorities() {
    RunState s = state(t("a").set(TaskKeys.RETRIES, 1), t("b"), t("c"));
    assertThat(started(pass(s, ONE_CPU, at(0)))).containsExactly("a#1");

    end(s, "a", 1, at(1));

    assertThat(started(pass(s, ONE_CPU, at(1)))).as("a is ahead of b and c, as it was").containsExactly("a#2");
  }

  @Test
  void aTaskInsideItsRetryDelayDoesNotHoldBackTheOthersAndGetsItsPlaceBackAfterwards() {
    RunState s = state(t("a").set(TaskKeys.RETRIES, 1).set(TaskKeys.RETRY_DELAY, secs(10)), t("b"), t("c"));
    pass(s, ONE_CPU, at(0));

    end(s, "a", 1, at(1));
    assertThat(started(pass(s, ONE_CPU, at(1)))).as("a waits, b takes the core").containsExactly("b#1");

    end(s, "b", 0, at(20));
    assertThat(started(pass(s, ONE_CPU, at(20)))).as("a's delay is over: it goes before c").containsExactly("a#2");
  }

  @Test
  void attemptNumbersCountUpAcrossRetries() {
    RunState s = state(t("a").set(TaskKeys.RETRIES, 2));
    pass(s, at(0));
    end(s, "a", 1, at(1));
    pass(s, at(1));
    end(s, "a", 1, at(2));
    pass(s, at(2));

    assertThat(s.task(id("a")).history().attempts()).extracting(Attempt::number).containsExactly(1, 2, 3);
  }
}

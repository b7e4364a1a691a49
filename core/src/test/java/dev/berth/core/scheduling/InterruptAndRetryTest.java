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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.IllegalTransitionException;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.resources.HostSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An interruption (Berth stopped while attempts ran) and a retry (a finished run reopened), as
 * folds over task histories on a fixed clock: interrupted tasks are not ended and spend no retry,
 * a task that finished while Berth stopped keeps its success, and a reopened task waits again with
 * its attempt numbers counting on and a fresh retry budget.
 */
class InterruptAndRetryTest {

  private static final SchedulerConfig ROOMY = unlimited().build();
  private static final HostSnapshot IDLE = host(T0, 8, 16 * GIB, 16 * GIB);
  private final Scheduler scheduler = new Scheduler(ROOMY);
  private final Attempts attempts = new Attempts(ROOMY);

  private static TaskSpec.Builder t(String id) {
    return TaskSpec.builder(id, "g").command("run", id).cpus(1);
  }

  private Decisions pass(RunState s, Instant at) {
    return SchedulingFixtures.pass(scheduler, s, IDLE, at);
  }

  private TaskEvent.Ended interrupt(RunState s, String task, int exitCode, Instant at) {
    TaskEvent.Ended e = attempts.ended(s.task(id(task)), at, exitCode,
        Optional.of(new Decision.Kill(id(task), Outcome.INTERRUPTED, "interrupted by SIGTERM")), "");
    s.apply(id(task), e);
    return e;
  }

  private static void reopen(RunState s, String task, Instant at) {
    s.apply(id(task), new TaskEvent.Reopened(at, "berth retry"));
  }

  @Test
  void anAttemptStoppedByAnInterruptionLeavesItsTaskInterruptedNotEndedAndWithoutAProcess() {
    RunState s = startedRun(ROOMY, false, group("g", t("a").set(TaskKeys.RETRIES, 0)));
    pass(s, at(0));

    TaskEvent.Ended e = interrupt(s, "a", 143, at(1));

    assertThat(e.outcome()).isEqualTo(Outcome.INTERRUPTED);
    assertThat(e.message()).isEqualTo("interrupted by SIGTERM; the task runs again when the run resumes");
    assertThat(stateOf(s, "a")).isEqualTo(TaskState.INTERRUPTED);
    assertThat(s.isFinished()).isFalse();
    assertThat(s.running()).isEmpty();
    assertThat(TaskStatus.of(TaskState.INTERRUPTED)).isEqualTo(TaskStatus.INTERRUPTED);
    assertThat(s.task(id("a")).history().finalReason()).contains(e.message());
  }

  @Test
  void aTaskThatExitedZeroWhileBerthWasStoppingKeepsItsSuccess() {
    RunState s = startedRun(ROOMY, false, group("g", t("a")));
    pass(s, at(0));

    TaskEvent.Ended e = interrupt(s, "a", 0, at(1));

    assertThat(e.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(stateOf(s, "a")).isEqualTo(TaskState.SUCCEEDED);
  }

  @Test
  void anInterruptedTaskStartsAgainWithTheNextAttemptNumberAndSpendsNoRetry() {
    RunState s = startedRun(ROOMY, false, group("g", t("a").set(TaskKeys.RETRIES, 0)));
    pass(s, at(0));
    interrupt(s, "a", 143, at(1));

    s.apply(id("a"), new TaskEvent.Released(at(2))); // the run resumed
    Decisions again = pass(s, at(2));

    assertThat(again.starts()).extracting(st -> st.task().value() + "#" + st.attempt()).containsExactly("a#2");
    TaskEvent.Ended failed = end(s, "a", 1, at(3));
    assertThat(failed.target()).as("retries: 0 still allows this failure's end only").isEqualTo(TaskState.FAILED);
    assertThat(Retries.failures(s.task(id("a")))).isEqualTo(1);
  }

  @Test
  void aRunReportNamesAnInterruptedRunAndCountsItsInterruptedTasks() {
    RunState s = startedRun(ROOMY, false, group("g", t("a"), t("b"), t("c")));
    pass(s, at(0));
    end(s, "a", 0, at(1));
    interrupt(s, "b", 143, at(2));
    interrupt(s, "c", 130, at(2));

    RunReport r = RunReport.of(s, T0, at(3), RunStatus.INTERRUPTED, spec -> spec.id().value());

    assertThat(r.status()).isEqualTo(RunStatus.INTERRUPTED);
    assertThat(r.totals().interrupted()).isEqualTo(2);
    assertThat(r.totals().ended()).isEqualTo(1);
    assertThat(r.totals().describe()).isEqualTo("3 tasks: 1 succeeded, 0 failed, 2 interrupted");
  }

  @Test
  void aReopenedTaskWaitsAgainCountsAttemptsOnAndHasItsRetryBudgetAfresh() {
    RunState s = startedRun(ROOMY, false, group("g", t("a").set(TaskKeys.RETRIES, 1)));
    pass(s, at(0));
    end(s, "a", 1, at(1));
    pass(s, at(1));
    end(s, "a", 1, at(2));
    assertThat(stateOf(s, "a")).isEqualTo(TaskState.FAILED);
    assertThat(s.isFinished()).isTrue();

    reopen(s, "a", at(10));

    assertThat(stateOf(s, "a")).isEqualTo(TaskState.QUEUED);
    assertThat(s.isFinished()).isFalse();
    assertThat(s.queued()).extracting(r -> r.spec().id().value()).containsExactly("a");
    Decisions d = pass(s, at(10));
    assertThat(d.starts()).extracting(st -> st.task().value() + "#" + st.attempt()).containsExactly("a#3");
    TaskEvent.Ended third = end(s, "a", 1, at(11));
    assertThat(third.target()).as("the new round has its one retry").isEqualTo(TaskState.READY);
    assertThat(third.message()).endsWith("retry 1 of 1");
    assertThat(s.task(id("a")).history().attemptsBeforeThisRound()).isEqualTo(2);
  }

  @Test
  void aSucceededTaskCannotBeReopened() {
    RunState s = startedRun(ROOMY, false, group("g", t("a")));
    pass(s, at(0));
    end(s, "a", 0, at(1));

    assertThatThrownBy(() -> reopen(s, "a", at(2))).isInstanceOf(IllegalTransitionException.class);
  }

  @Test
  void aReopenedTaskWithAQueueTimeoutCountsItsWaitFromTheReopening() {
    RunState s = startedRun(ROOMY, false, group("g", t("p"), t("a").after(Dependency.allSucceeded(List.of(id("p"))))
        .queueTimeout(Duration.ofSeconds(5))));
    pass(s, at(0));
    end(s, "p", 1, at(1));
    pass(s, at(1));
    assertThat(stateOf(s, "a")).isEqualTo(TaskState.UNREACHABLE);

    reopen(s, "p", at(100));
    reopen(s, "a", at(100));

    assertThat(s.pendingSince(s.task(id("a")))).contains(at(100));
    pass(s, at(101));
    assertThat(stateOf(s, "a")).as("waits for p, which runs again").isEqualTo(TaskState.QUEUED);
  }

  @Test
  void aRetryChoosesWhatDidNotSucceedAndTheUnreachableTasksBehindIt() {
    RunState s = startedRun(ROOMY, false, group("g",
        t("ok"), t("bad"), t("late").after(Dependency.allSucceeded(List.of(id("bad")))),
        t("later").after(Dependency.allSucceeded(List.of(id("late")))), t("stopped")));
    pass(s, at(0));
    end(s, "ok", 0, at(1));
    end(s, "bad", 1, at(1));
    s.apply(id("stopped"), new TaskEvent.Ended(at(1), Outcome.CANCELLED, 143, "cancelled", TaskState.CANCELLED));
    pass(s, at(1));
    pass(s, at(1)); // the cascade: later waits on late
    assertThat(stateOf(s, "later")).isEqualTo(TaskState.UNREACHABLE);

    assertThat(RetrySelection.everything().tasksIn(s)).extracting(i -> i.value())
        .containsExactly("bad", "late", "later", "stopped");
    assertThat(new RetrySelection(List.of(), true, false).tasksIn(s)).extracting(i -> i.value())
        .containsExactly("bad", "late", "later");
    assertThat(new RetrySelection(List.of(), false, true).tasksIn(s)).extracting(i -> i.value())
        .containsExactly("stopped");
    assertThat(new RetrySelection(List.of("ok"), false, false).tasksIn(s)).isEmpty();
    assertThat(new RetrySelection(List.of("group:g"), true, true).tasksIn(s)).hasSize(4);
    assertThat(new RetrySelection(List.of("ok", "bad"), true, true).describeNone())
        .isEqualTo("no task matching ok, bad failed or was cancelled");
    assertThatThrownBy(() -> new RetrySelection(List.of("nope-*"), false, false).tasksIn(s))
        .hasMessage("no task of run run matches nope-*");
  }
}

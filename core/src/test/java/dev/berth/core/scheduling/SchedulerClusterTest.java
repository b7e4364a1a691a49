package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.at;
import static dev.berth.core.scheduling.SchedulingFixtures.group;
import static dev.berth.core.scheduling.SchedulingFixtures.host;
import static dev.berth.core.scheduling.SchedulingFixtures.id;
import static dev.berth.core.scheduling.SchedulingFixtures.startedRun;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.ExecutorKind;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RetryPolicy;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Admission with {@code scheduler.executor: slurm}: the cluster decides where and when. */
class SchedulerClusterTest {

  private static final SchedulerConfig CLUSTER = SchedulerConfig.builder()
      .set(SchedulerKeys.EXECUTOR, ExecutorKind.SLURM).set(SchedulerKeys.MAX_PROCESS, 0).build();
  /** A submitting machine far too small for the tasks: on a cluster, it must not matter. */
  private static final HostSnapshot TINY = host(T0, 1, 0.99, 1 * GIB, 0, java.util.Map.of());
  private final Scheduler scheduler = new Scheduler(CLUSTER);

  private static TaskSpec.Builder t(String id) {
    return TaskSpec.builder(id, "g").command("run", id).cpus(4).memoryBytes(64 * GIB);
  }

  private static RunState state(TaskSpec.Builder... tasks) {
    return startedRun(CLUSTER, false, group("g", tasks));
  }

  private static Dependency allOk(String... parents) {
    return Dependency.allSucceeded(Arrays.stream(parents).map(TaskId::of).toList());
  }

  private Decisions pass(RunState s, Instant at) {
    return SchedulingFixtures.pass(scheduler, s, TINY, at);
  }

  private static Decision.Start start(Decisions d, String task) {
    return d.starts().stream().filter(x -> x.task().value().equals(task)).findFirst().orElseThrow();
  }

  private static List<String> started(Decisions d) {
    return d.starts().stream().map(x -> x.task().value()).toList();
  }

  private void end(RunState s, String task, int code, Instant at, ClusterVerdict verdict) {
    TaskRecord r = s.task(id(task));
    s.apply(id(task), scheduler.attempts().ended(r, at, code, Optional.empty(), "", Optional.ofNullable(verdict)));
  }

  @Test
  void everyReadyTaskIsSubmittedWhateverThisMachineHasFree() {
    RunState s = state(t("a"), t("b"), t("c"));

    Decisions d = pass(s, at(0));

    assertThat(started(d)).containsExactly("a", "b", "c");
    assertThat(start(d, "a").placement()).isEqualTo(new Placement(Placement.CLUSTER, 64 * GIB, 4000, 0));
  }

  @Test
  void maxJobsCapsTheJobsInTheClustersHandsAndSaysWhyTheOthersWait() {
    SchedulerConfig capped = CLUSTER.toBuilder().set(SchedulerKeys.MAX_JOBS, 2).build();
    Scheduler scheduler = new Scheduler(capped);
    RunState s = new RunState(new RunSpec("run", "runs/run", capped,
        List.of(new GroupSpec("g", List.of(t("a").build(), t("b").build(), t("c").build())))));
    s.started(T0);

    Decisions d = scheduler.decide(s, TINY, at(0));
    SchedulingFixtures.carryOut(s, d, at(0));

    assertThat(started(d)).containsExactly("a", "b");
    assertThat(d.waiting()).singleElement().satisfies(w -> {
      assertThat(w.task()).isEqualTo(id("c"));
      assertThat(w.refusals().get(0).rule()).isEqualTo("slurm.max-jobs");
      assertThat(w.refusals().get(0).reserved()).isEqualTo(2);
    });
    s.apply(id("a"), Retries.ending(s.task(id("a")), at(1), 0, Optional.empty()));
    assertThat(started(scheduler.decide(s, TINY, at(1)))).containsExactly("c");
  }

  @Test
  void maxProcessIsRunWideOnTheClusterForSingleJobsAndMatrixTasksAlike() {
    SchedulerConfig capped = CLUSTER.toBuilder().set(SchedulerKeys.MAX_PROCESS, 2).build();
    Scheduler scheduler = new Scheduler(capped);
    RunState s = new RunState(new RunSpec("run", "runs/run", capped, List.of(new GroupSpec("g", List.of(
        t("m-1").params(java.util.Map.of("i", "1")).build(), t("m-2").params(java.util.Map.of("i", "2")).build(),
        t("solo").build(), t("other").build())))));
    s.started(T0);

    Decisions d = scheduler.decide(s, TINY, at(0));
    SchedulingFixtures.carryOut(s, d, at(0));

    assertThat(started(d)).containsExactly("m-1", "m-2");
    assertThat(d.waiting()).extracting(w -> w.task().value()).containsExactly("solo", "other");
    assertThat(d.waiting()).allSatisfy(w -> assertThat(w.describe())
        .isEqualTo("jobs on the cluster: 2 of the run's pending or running, at most 2 [scheduler.max-process]"));
    s.apply(id("m-1"), Retries.ending(s.task(id("m-1")), at(1), 0, Optional.empty()));
    assertThat(started(scheduler.decide(s, TINY, at(1)))).containsExactly("solo");
  }

  /** {@code id} in {@code group}, whose {@code slurm:} options (its group's, carried on it) are {@code options}. */
  private static TaskSpec.Builder t(String id, String group, java.util.Map<String, ?> options) {
    TaskSpec.Builder b = TaskSpec.builder(id, group).command("run", id).cpus(4).memoryBytes(64 * GIB);
    return options.isEmpty() ? b : b.set(TaskKeys.SLURM, TaskKeys.SLURM.parse(options));
  }

  @Test
  void aGroupsMaxJobsCapsItsOwnJobsWhileAnotherGroupsTasksStillGo() {
    java.util.Map<String, ?> capped = java.util.Map.of("max-jobs", 2, "partition", "gpu");
    RunState s = startedRun(CLUSTER, true,
        group("prep", t("p1", "prep", java.util.Map.of()), t("p2", "prep", java.util.Map.of())),
        group("sweep", t("s1", "sweep", capped), t("s2", "sweep", capped), t("s3", "sweep", capped),
            t("s4", "sweep", capped)),
        group("eval", t("e1", "eval", java.util.Map.of()), t("e2", "eval", java.util.Map.of())));

    Decisions d = pass(s, at(0));

    assertThat(started(d)).containsExactlyInAnyOrder("p1", "p2", "s1", "s2", "e1", "e2");
    assertThat(d.waiting()).extracting(w -> w.task().value()).containsExactly("s3", "s4");
    assertThat(d.waiting()).allSatisfy(w -> assertThat(w.describe()).isEqualTo(
        "jobs on the cluster: 2 of group sweep's pending or running, at most 2 [groups[1].slurm.max-jobs]"));

    s.apply(id("p1"), Retries.ending(s.task(id("p1")), at(1), 0, Optional.empty()));
    assertThat(started(pass(s, at(1)))).as("another group's job ending makes no room in sweep").isEmpty();

    s.apply(id("s1"), Retries.ending(s.task(id("s1")), at(2), 0, Optional.empty()));
    Decisions later = pass(s, at(2));
    assertThat(started(later)).containsExactly("s3");
    assertThat(later.waiting()).extracting(w -> w.task().value()).containsExactly("s4");
  }

  @Test
  void theSmallestJobLimitBindsAndOneTaughtByARefusalEndsWhenItsTimeIsUp() {
    SchedulerConfig capped = CLUSTER.toBuilder().set(SchedulerKeys.MAX_JOBS, 3).build();
    Scheduler scheduler = new Scheduler(capped);
    RunState s = new RunState(new RunSpec("run", "runs/run", capped,
        List.of(new GroupSpec("g", List.of(t("a").build(), t("b").build(), t("c").build(), t("d").build())))));
    s.started(T0);
    List<JobLimit> cluster = List.of(new JobLimit(10, "MaxSubmitJobs=10"),
        new JobLimit(1, "sbatch: QOSMaxSubmitJobPerUserLimit", Optional.of(at(30))));

    Decisions d = scheduler.decide(s, TINY, at(0), java.util.Set.of(), cluster);
    SchedulingFixtures.carryOut(s, d, at(0));

    assertThat(started(d)).containsExactly("a");
    assertThat(d.waiting()).extracting(w -> w.refusals().get(0).rule())
        .containsOnly("sbatch: QOSMaxSubmitJobPerUserLimit");
    assertThat(d.wakeAt()).contains(at(30));
    Decisions later = scheduler.decide(s, TINY, at(30), java.util.Set.of(), cluster);
    assertThat(started(later)).as("the refusal's limit is over; slurm.max-jobs binds").containsExactly("b", "c");
  }

  @Test
  void aGpuShareIsReservedForTheClusterToMapOntoItsGres() {
    RunState s = state(t("a").gpuMemoryBytes(8 * GIB));

    Decision.Start a = start(pass(s, at(0)), "a");

    assertThat(a.placement().device()).isEqualTo(Placement.CLUSTER);
    assertThat(a.placement().gpuMemoryBytes()).isEqualTo(8 * GIB);
  }

  @Test
  void aDependantIsSubmittedAheadOfItsRunningParentForTheClusterToHold() {
    RunState s = state(t("a"), t("b").after(allOk("a")));

    Decisions d = pass(s, at(0));

    assertThat(started(d)).containsExactly("a", "b");
    assertThat(start(d, "b").upstream()).contains(allOk("a"));
    assertThat(start(d, "a").upstream()).isEmpty();
  }

  @Test
  void aDependantOfAMatrixTaskIsHeldByBerthBecauseSlurmCountsACancelledPendingArrayElementAsMet() {
    RunState s = state(t("m-1").params(java.util.Map.of("i", "1")), t("solo"),
        t("after-m").after(allOk("m-1")), t("after-both").after(allOk("m-1", "solo")),
        t("after-solo").after(allOk("solo")));

    Decisions d = pass(s, at(0));

    assertThat(started(d)).containsExactly("m-1", "solo", "after-solo");
    end(s, "m-1", 0, at(1), null);
    Decisions next = pass(s, at(2));
    assertThat(started(next)).containsExactly("after-m", "after-both");
    assertThat(start(next, "after-both").upstream()).contains(allOk("solo"));
  }

  @Test
  void onlyTheParentsStillRunningAreHandedToTheCluster() {
    RunState s = state(t("a"), t("b").retry(new RetryPolicy(1, Duration.ofSeconds(10), 1, Duration.ofHours(1))),
        t("c").after(allOk("a", "b")));
    pass(s, at(0));
    end(s, "b", 1, at(1), null); // b waits 10 s for its retry
    end(s, "c", 143, at(1.1), new ClusterVerdict(ClusterVerdict.Kind.UPSTREAM_NOT_MET, "Slurm dropped it"));
    end(s, "a", 0, at(2), null);
    assertThat(started(pass(s, at(3)))).as("b has no job yet").isEmpty();

    Decisions d = pass(s, at(11));

    assertThat(started(d)).containsExactly("b", "c");
    assertThat(start(d, "c").upstream()).as("a already succeeded").contains(allOk("b"));
  }

  @Test
  void aDependantWaitsWhileAParentIsNotSubmittedYet() {
    RunState s = state(t("a").retry(new RetryPolicy(1, Duration.ofMinutes(5), 1, Duration.ofHours(1))),
        t("b").after(allOk("a")));
    pass(s, at(0));
    end(s, "a", 1, at(1), null); // a fails and waits 5 minutes for its retry
    end(s, "b", 143, at(1.1), new ClusterVerdict(ClusterVerdict.Kind.UPSTREAM_NOT_MET, "Slurm dropped it"));

    Decisions d = pass(s, at(2));

    assertThat(started(d)).as("a waits for its retry delay, so b has no job to wait for").isEmpty();
    assertThat(s.task(id("b")).state()).isEqualTo(TaskState.READY);
  }

  @Test
  void failureEdgesAreHeldByBerthBecauseARetriedAttemptIsNotAFailedTask() {
    RunState s = state(t("a"), t("cleanup").after(new Dependency(List.of(id("a")), true, false, true)));

    assertThat(started(pass(s, at(0)))).containsExactly("a");
    assertThat(s.task(id("cleanup")).state()).isEqualTo(TaskState.QUEUED);
  }

  @Test
  void aJobDroppedForAnUnmetDependencyWaitsAgainWithoutUsingItsRetries() {
    RunState s = state(t("a"), t("b").after(allOk("a")));
    pass(s, at(0));
    end(s, "a", 137, at(1), new ClusterVerdict(ClusterVerdict.Kind.HOST_OOM, "memory kill"));
    end(s, "b", 143, at(1.1), new ClusterVerdict(ClusterVerdict.Kind.UPSTREAM_NOT_MET, "Slurm dropped it"));

    assertThat(s.task(id("b")).history().attempts().get(0).end().orElseThrow().outcome())
        .isEqualTo(Outcome.INTERRUPTED);
    Decisions d = pass(s, at(2));

    assertThat(started(d)).containsExactly("a", "b");
    assertThat(start(d, "a").placement().memoryBytes()).as("after a memory kill, --mem grows by oom-growth")
        .isEqualTo(96 * GIB);
    assertThat(start(d, "b").upstream()).contains(allOk("a"));
  }

  @Test
  void aJobKilledBySigkillWithoutAMemoryKillOnRecordIsAPlainFailureWhoseRetryKeepsItsMemory() {
    RunState s = state(t("a").set(TaskKeys.RETRIES, 1));
    pass(s, at(0));
    end(s, "a", 137, at(1), new ClusterVerdict(ClusterVerdict.Kind.FAILED, "Slurm job 7 FAILED: killed by signal 9"));

    assertThat(s.task(id("a")).history().attempts().get(0).end().orElseThrow().outcome())
        .isEqualTo(Outcome.KILLED);
    Decisions d = pass(s, at(2));

    assertThat(started(d)).containsExactly("a");
    assertThat(start(d, "a").placement().memoryBytes()).as("no memory kill, so --mem stays").isEqualTo(64 * GIB);
  }

  @Test
  void aDependantHeldByTheClusterIsUnreachableOnceItsParentFailedForGood() {
    RunState s = state(t("a"), t("b").after(allOk("a")));
    pass(s, at(0));
    end(s, "a", 1, at(1), null);
    end(s, "b", 143, at(1.1), new ClusterVerdict(ClusterVerdict.Kind.UPSTREAM_NOT_MET, "Slurm dropped it"));

    Decisions d = pass(s, at(2));

    assertThat(started(d)).isEmpty();
    assertThat(s.task(id("b")).state()).isEqualTo(TaskState.UNREACHABLE);
  }

  @Test
  void aNodeFailureRunsTheTaskAgainWithoutCountingARetry() {
    RunState s = state(t("a"));
    pass(s, at(0));
    end(s, "a", 75, at(1), new ClusterVerdict(ClusterVerdict.Kind.INFRASTRUCTURE, "Slurm job 3 NODE_FAIL"));

    assertThat(s.task(id("a")).state()).isEqualTo(TaskState.READY);
    assertThat(Retries.failures(s.task(id("a")))).isZero();
    assertThat(started(pass(s, at(2)))).containsExactly("a");
  }

  @Test
  void aTimeLimitKillEndsTheTaskTimedOutAndSomeoneElsesCancelEndsItCancelled() {
    RunState s = state(t("a"), t("b"));
    pass(s, at(0));
    end(s, "a", 143, at(1), new ClusterVerdict(ClusterVerdict.Kind.TIMED_OUT, "Slurm job 1 TIMEOUT"));
    end(s, "b", 143, at(1), new ClusterVerdict(ClusterVerdict.Kind.CANCELLED, "Slurm job 2 CANCELLED by 0"));

    assertThat(s.task(id("a")).state()).isEqualTo(TaskState.TIMED_OUT);
    assertThat(s.task(id("b")).state()).isEqualTo(TaskState.CANCELLED);
  }

  @Test
  void theClusterEnforcesTimeoutsSoBerthDecidesNoKill() {
    RunState s = state(t("a").timeout(Duration.ofSeconds(1)));
    pass(s, at(0));

    Decisions later = pass(s, at(3600));

    assertThat(later.actions()).noneMatch(Decision.Kill.class::isInstance);
  }
}

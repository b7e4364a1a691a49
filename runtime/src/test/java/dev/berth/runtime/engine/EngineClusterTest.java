package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.ClusterAccounting;
import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.ExecutorKind;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.JobLimit;
import dev.berth.core.scheduling.Waiting;
import dev.berth.spi.Journal;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeHostProbe;
import dev.berth.testkit.MemoryJournal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine handing tasks to a cluster executor ({@code scheduler.executor: slurm}). */
class EngineClusterTest {

  private static final long GIB = 1L << 30;

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final FakeExecutor executor = new FakeExecutor().asCluster();
  /** The submitting machine: far too small for the tasks, which must not matter. */
  private final FakeHostProbe probe = new FakeHostProbe().cpus(1).totalGiB(1).availableGiB(0).utilization(0.99);
  private final SchedulerConfig config = SchedulerConfig.builder()
      .set(SchedulerKeys.EXECUTOR, ExecutorKind.SLURM).build();

  private static TaskSpec.Builder t(String id) {
    return TaskSpec.builder(id, "g").command("train", id).memoryBytes(32 * GIB).cpus(8);
  }

  private static TaskId id(String s) {
    return TaskId.of(s);
  }

  private RunSpec spec(TaskSpec.Builder... tasks) {
    return new RunSpec("r", dir.toString(), config,
        List.of(new GroupSpec("g", Arrays.stream(tasks).map(TaskSpec.Builder::build).toList())));
  }

  private Engine engine(RunSpec spec) {
    return new Engine(spec, new RunLayout(dir), executor, probe, clock, clock, RunListener.NONE);
  }

  @Test
  void eachAttemptAsksTheClusterForItsReservationAndNotForADevice() {
    Engine engine = engine(spec(t("a").gpuMemoryBytes(8 * GIB)));
    engine.start();

    LaunchRequest a = executor.lastLaunch(id("a"));

    assertThat(a.reservation()).isEqualTo(new Placement(Placement.CLUSTER, 32 * GIB, 8000, 8 * GIB));
    assertThat(engine.state().task(id("a")).history().attempts().get(0).clusterId())
        .as("the job id is journalled with the attempt").contains("job-1000");
    assertThat(a.env()).doesNotContainKey("CUDA_VISIBLE_DEVICES").containsEntry("BERTH_DEVICE", "cluster")
        .containsEntry("BERTH_GPU_MEMORY_BYTES", Long.toString(8 * GIB));
  }

  @Test
  void theClustersAccountingOfAnEndedJobIsJournalledWithItsAttempt() {
    Engine engine = engine(spec(t("a")));
    engine.start();
    ClusterAccounting slurm = new ClusterAccounting("job-1000", "COMPLETED", Optional.of(clock.instant()),
        Optional.of(clock.instant().plusSeconds(30)), Optional.of(clock.instant().plusSeconds(31)),
        Optional.of(Duration.ofSeconds(1)), "node7", "0:0");
    clock.advance(Duration.ofSeconds(40));

    executor.exit(id("a"), 0, slurm);
    engine.drain();

    Attempt a = engine.state().task(id("a")).history().attempts().get(0);
    assertThat(a.accounting()).contains(slurm);
    assertThat(a.ranFrom()).isEqualTo(slurm.startedAt().orElseThrow());
    assertThat(a.ranUntil()).isEqualTo(slurm.endedAt());
    assertThat(engine.state().task(id("a")).state()).isEqualTo(TaskState.SUCCEEDED);
  }

  @Test
  void matrixTasksOfOnePassGoToTheExecutorTogetherWithOneArrayKey() {
    Engine engine = engine(spec(
        t("train-1").params(Map.of("lr", "1")), t("train-2").params(Map.of("lr", "2")), t("solo")));
    engine.start();

    assertThat(executor.batches()).containsExactly(List.of(id("train-1"), id("train-2"), id("solo")));
    assertThat(executor.lastLaunch(id("train-1")).arrayKey()).isPresent()
        .isEqualTo(executor.lastLaunch(id("train-2")).arrayKey());
    assertThat(executor.lastLaunch(id("solo")).arrayKey()).isEmpty();
  }

  @Test
  void aDependantIsHandedToTheClusterWithItsParentsRunningJob() {
    Engine engine = engine(spec(t("a"), t("b").after(Dependency.allSucceeded(List.of(id("a"))))));
    engine.start();

    LaunchRequest b = executor.lastLaunch(id("b"));

    assertThat(executor.launched(id("b"))).as("b goes in the same pass, after a").hasSize(1);
    assertThat(executor.batches()).containsExactly(List.of(id("a")), List.of(id("b")));
    assertThat(b.upstream()).isPresent();
    assertThat(b.upstream().get().parents()).hasSize(1);
    assertThat(b.upstream().get().parents().get(0).clusterId()).contains("job-1000");
    assertThat(b.upstream().get().all()).isTrue();
  }

  @Test
  void aStartTheClusterRefusesForNowWaitsForRoomWithoutFailingOrSpendingARetry() {
    executor.refuseLaunchOfForNow(id("b"), "sbatch refused the job for now: QOSMaxSubmitJobPerUserLimit",
        new JobLimit(1, "sbatch: QOSMaxSubmitJobPerUserLimit", java.util.Optional.of(clock.instant().plusSeconds(30))));
    List<Waiting> waiting = new java.util.ArrayList<>();
    Engine engine = new Engine(spec(t("a"), t("b")), new RunLayout(dir), executor, probe, clock, clock,
        new RunListener() {
          @Override
          public void decided(dev.berth.core.scheduling.Decisions decisions) {
            waiting.addAll(decisions.waiting());
          }
        });
    engine.start();

    assertThat(engine.state().task(id("b")).state()).isEqualTo(TaskState.READY);
    assertThat(engine.state().task(id("b")).history().attempts().get(0).end().orElseThrow().outcome())
        .isEqualTo(Outcome.INTERRUPTED);
    assertThat(waiting).anySatisfy(w -> {
      assertThat(w.task()).isEqualTo(id("b"));
      assertThat(w.describe()).contains("sbatch: QOSMaxSubmitJobPerUserLimit");
    });
    assertThat(executor.launched(id("b"))).hasSize(1);

    clock.advance(java.time.Duration.ofSeconds(31));
    engine.drain();

    assertThat(executor.launched(id("b"))).as("submitted again once the refusal's limit is over").hasSize(2);
    assertThat(engine.state().task(id("b")).state().hasProcess()).isTrue();
  }

  @Test
  void aMemoryKillOnTheClusterIsRetriedWithMoreMemory() {
    Engine engine = engine(spec(t("a")));
    engine.start();

    executor.exit(id("a"), 137, new ClusterVerdict(ClusterVerdict.Kind.HOST_OOM, "Slurm job 4 OUT_OF_MEMORY"));
    engine.drain();

    assertThat(executor.launched(id("a"))).hasSize(2);
    assertThat(executor.lastLaunch(id("a")).reservation().memoryBytes()).isEqualTo(48 * GIB);
    assertThat(engine.state().task(id("a")).history().attempts().get(0).end().orElseThrow().outcome())
        .isEqualTo(Outcome.HOST_OOM);
  }

  @Test
  void aCudaOutOfMemoryInTheJobsErrorFileIsRetriedWithMoreGpuMemory() {
    Engine engine = engine(spec(t("a").gpuMemoryBytes(8 * GIB)));
    engine.start();

    executor.writeOutput(id("a"), "", "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n");
    executor.exit(id("a"), 1);
    engine.drain();

    assertThat(executor.launched(id("a"))).hasSize(2);
    assertThat(executor.lastLaunch(id("a")).reservation().gpuMemoryBytes()).isEqualTo(12 * GIB);
  }

  @Test
  void aJobTheClusterDroppedForAFailedParentMakesTheDependantUnreachable() {
    Engine engine = engine(spec(t("a"), t("b").after(Dependency.allSucceeded(List.of(id("a"))))));
    engine.start();

    executor.exit(id("a"), 1);
    executor.exit(id("b"), 143, new ClusterVerdict(ClusterVerdict.Kind.UPSTREAM_NOT_MET,
        "Slurm job 2 CANCELLED (DependencyNeverSatisfied)"));
    engine.drain();

    assertThat(engine.state().task(id("b")).state()).isEqualTo(TaskState.UNREACHABLE);
    assertThat(executor.launched(id("b"))).hasSize(1);
    assertThat(engine.result()).isNotNull();
  }

  @Test
  void aResumedRunFindsItsJobsAgainAndWaitsForThem() throws Exception {
    MemoryJournal journal = new MemoryJournal();
    RunSpec spec = spec(t("a"), t("b"));
    journal.start("r", "spec", clock.instant());
    engine(spec).journal(journal).start(); // both submitted; then this Berth is killed
    MemoryJournal after = journal.reopen();
    Journal.Replay replay = after.replay().orElseThrow();
    // The next Berth's executor finds a's job; b's was never submitted (Berth died between journal and sbatch).
    FakeExecutor next = new FakeExecutor().asCluster().survive(id("a"), 1);

    Engine second = new Engine(spec, new RunLayout(dir), next, probe, clock, clock, RunListener.NONE)
        .journal(after).resume(replay);
    second.start();

    assertThat(next.transcript()).containsExactly("reattach a#1", "launch b#2");
    next.exit(id("a"), 0);
    next.exit(id("b"), 0);
    second.drain();
    assertThat(second.result()).isNotNull();
    assertThat(second.state().task(id("a")).history().attemptCount()).isEqualTo(1);
    assertThat(second.state().task(id("b")).history().attempts().get(0).end().orElseThrow().outcome())
        .isEqualTo(Outcome.INTERRUPTED);
  }
}

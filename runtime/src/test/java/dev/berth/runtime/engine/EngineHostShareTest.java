package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.SimulatedDevices;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.Waiting;
import dev.berth.host.HostLedgers;
import dev.berth.runtime.gpu.SimulatedGpuProbe;
import dev.berth.spi.SharedReservations;
import dev.berth.testkit.CountingReservations;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeHostProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two engines on one host share a ledger: neither hands out what the other holds, and the host-wide order decides. */
class EngineHostShareTest {

  private static final long GIB = 1L << 30;
  private static final String GPUS = "sim:24GiB";

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final Supplier<SharedReservations> host = HostLedgers.sharedInMemory();
  private final SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.REMAIN_MEMORY, 0L)
      .set(SchedulerKeys.REMAIN_CUDA_MEMORY, 0L)
      .set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, 1.0).set(SchedulerKeys.INTERVAL, Duration.ofSeconds(1)).build();

  /** One run on the host: its engine, executor and what it said about waiting tasks. */
  private final class Run {
    final FakeExecutor executor = new FakeExecutor();
    final List<Waiting> waiting = new ArrayList<>();
    final Engine engine;
    final CountingReservations ledger;

    Run(String name, int priority, String... tasks) {
      this(name, priority, (PoolSpec) null, tasks);
    }

    /** A run whose tasks are calls of {@code pool}, or processes for null. */
    Run(String name, int priority, PoolSpec pool, String... tasks) {
      this(name, priority, pool, java.util.Arrays.stream(tasks).map(t -> Map.entry(t, 10L)).toList());
    }

    /** A run whose tasks ask these GiB of GPU memory each. */
    Run(String name, int priority, List<Map.Entry<String, Long>> gibByTask) {
      this(name, priority, null, gibByTask);
    }

    Run(String name, int priority, PoolSpec pool, List<Map.Entry<String, Long>> gibByTask) {
      List<TaskSpec> specs = new ArrayList<>();
      for (Map.Entry<String, Long> t : gibByTask) {
        specs.add(TaskSpec.builder(t.getKey(), "g").command("work").cpus(0).memoryBytes(0).priority(priority)
            .gpuMemoryBytes(t.getValue() * GIB).set(TaskKeys.POOL, pool).build());
      }
      RunSpec spec = new RunSpec(name, dir.resolve(name).toString(), config, List.of(new GroupSpec("g", specs)), false,
          GPUS, dev.berth.core.model.Reporting.NONE);
      ledger = new CountingReservations(host.get());
      ledger.join(HostLedgers.self(name, dir.resolve(name).toString()), clock.instant());
      engine = new Engine(spec, new RunLayout(dir.resolve(name)), executor,
          new FakeHostProbe().cpus(8).totalGiB(64).availableGiB(64), new SimulatedGpuProbe(SimulatedDevices.parse(GPUS)),
          clock, clock, new RunListener() {
            @Override
            public void decided(Decisions d) {
              waiting.clear();
              waiting.addAll(d.waiting());
            }
          }).shareHost(ledger);
    }

    Optional<String> whyWaiting(String task) {
      return waiting.stream().filter(w -> w.task().equals(TaskId.of(task)))
          .map(w -> w.refusals().get(0).describe()).findFirst();
    }
  }

  @Test
  void aRunDoesNotHandOutWhatAnotherRunHoldsAndSaysWhoHoldsIt() {
    Run a = new Run("a", 0, "a1", "a2");
    Run b = new Run("b", 0, "b1");
    a.engine.start();
    b.engine.start();

    assertThat(a.executor.running()).hasSize(2);
    assertThat(b.executor.running()).isEmpty();
    assertThat(b.whyWaiting("b1")).hasValueSatisfying(why -> assertThat(why)
        .contains("20 GiB held by run a of user " + System.getProperty("user.name")));

    a.executor.exit(TaskId.of("a1"), 0);
    a.engine.drain();
    clock.advance(Duration.ofSeconds(1)); // b learns of the release at its next probe tick
    b.engine.drain();

    assertThat(b.executor.running()).containsExactly(TaskId.of("b1"));
  }

  @Test
  void anAttemptOfARunThatSharesTheHostLedgerIsToldWhichLedgerItIs() {
    Run a = new Run("a", 0, "a1");
    a.engine.start();

    assertThat(a.executor.lastLaunch(TaskId.of("a1")).env())
        .containsEntry(SharedReservations.LEDGER_VARIABLE, a.ledger.where());
  }

  @Test
  void aFreedShareGoesToTheTaskFirstInTheHostWideOrderNotToTheRunThatLooksFirst() {
    Run a = new Run("a", 0, "a1", "a2", "a3");
    a.engine.start();
    Run b = new Run("b", 5, "b1");
    b.engine.start();
    assertThat(b.executor.running()).isEmpty();

    a.executor.exit(TaskId.of("a1"), 0);
    a.engine.drain();

    assertThat(a.executor.running()).as("a3 waits behind b1, which has a higher priority")
        .doesNotContain(TaskId.of("a3"));
    assertThat(a.whyWaiting("a3")).hasValueSatisfying(why -> assertThat(why).contains("task b1 of run b"));

    clock.advance(Duration.ofSeconds(1));
    b.engine.drain();
    a.engine.drain();
    assertThat(b.executor.running()).containsExactly(TaskId.of("b1"));
    assertThat(a.executor.running()).doesNotContain(TaskId.of("a3"));
  }

  @Test
  void aTaskAfterOneTheHostWideOrderHoldsBackAsksForItselfInsteadOfWaitingForWhatTheOtherWouldHaveTaken() {
    Run c = new Run("c", 0, "c1", "c2");
    c.engine.start();
    Run b = new Run("b", 5, "b1");
    b.engine.start();
    assertThat(b.executor.running()).as("c holds 20 GiB of 24").isEmpty();
    c.executor.exit(TaskId.of("c2"), 0);
    c.engine.drain(); // 14 GiB free, and b1 (10 GiB, priority 5) waits first for them

    Run a = new Run("a", 0, List.of(Map.entry("big", 14L), Map.entry("small", 4L)));
    a.engine.start();

    assertThat(a.whyWaiting("big")).hasValueSatisfying(why -> assertThat(why).contains("task b1 of run b"));
    assertThat(a.executor.running()).as("b1 leaves 4 GiB, which small fits in").containsExactly(TaskId.of("small"));
  }

  @Test
  void aPoolsCallIsLaunchedWithItsPoolAsDataAndNoPoolVariablesInItsEnvironment() {
    Run a = new Run("a", 0, PoolSpec.named("fast"), "a1");
    a.engine.start();

    dev.berth.spi.LaunchRequest request = a.executor.lastLaunch(TaskId.of("a1"));
    assertThat(request.pool()).contains(PoolSpec.named("fast"));
    assertThat(request.env()).doesNotContainKeys("BERTH_POOL", "BERTH_POOL_SETTINGS");
  }

  @Test
  void aPoolsCallTakesTheSlotItsPoolsEndedCallHeldWithoutALedgerStepAndTheOtherRunStillSeesIt() {
    Run a = new Run("a", 0, PoolSpec.named("fast"), "a1", "a2", "a3", "a4");
    Run b = new Run("b", 0, "b1");
    a.engine.start();
    int claims = a.ledger.claims();

    for (String call : List.of("a1", "a2")) {
      a.executor.exit(TaskId.of(call), 0);
      a.engine.drain();
    }
    b.engine.start();

    assertThat(a.executor.running()).containsExactlyInAnyOrder(TaskId.of("a3"), TaskId.of("a4"));
    assertThat(a.ledger.claims()).as("a3 and a4 took the slots a1 and a2 held").isEqualTo(claims);
    assertThat(b.executor.running()).isEmpty();
    assertThat(b.whyWaiting("b1")).hasValueSatisfying(why -> assertThat(why).contains("held by run a"));
  }

  @Test
  void aPoolsSlotsGoBackOnceAnIntervalOldSoATaskOfAnotherRunFirstInTheHostWideOrderGetsItsTurn() {
    Run a = new Run("a", 0, PoolSpec.named("fast"), "a1", "a2", "a3");
    a.engine.start();
    Run b = new Run("b", 5, "b1");
    b.engine.start();
    assertThat(b.executor.running()).isEmpty();

    clock.advance(Duration.ofSeconds(1));
    b.engine.drain(); // b1 waits, first in the host-wide order
    a.executor.exit(TaskId.of("a1"), 0);
    a.engine.drain();

    assertThat(a.executor.running()).as("a1's slot went back, and a3 waits behind b1")
        .doesNotContain(TaskId.of("a3"));
    clock.advance(Duration.ofSeconds(1));
    b.engine.drain();
    assertThat(b.executor.running()).containsExactly(TaskId.of("b1"));
  }
}

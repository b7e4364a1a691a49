package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.MIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.at;
import static dev.berth.core.scheduling.SchedulingFixtures.carryOut;
import static dev.berth.core.scheduling.SchedulingFixtures.group;
import static dev.berth.core.scheduling.SchedulingFixtures.host;
import static dev.berth.core.scheduling.SchedulingFixtures.id;
import static dev.berth.core.scheduling.SchedulingFixtures.run;
import static dev.berth.core.scheduling.SchedulingFixtures.task;
import static dev.berth.core.scheduling.SchedulingFixtures.unlimited;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.resources.Refusal;
import dev.berth.core.resources.Resource;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchedulerTest {

  private static final SchedulerConfig ROOMY = unlimited().build();
  /** 8 CPUs, 16 GiB, all free. */
  private static final HostSnapshot IDLE = host(T0, 8, 16 * GIB, 16 * GIB);

  private static List<String> ids(List<? extends Decision> decisions) {
    return decisions.stream().map(d -> d.task().value()).toList();
  }

  private static List<String> startIds(Decisions d) {
    return ids(d.starts());
  }

  private static List<String> releaseIds(Decisions d) {
    return ids(d.actions().stream().filter(Decision.Release.class::isInstance).toList());
  }

  private static List<Decision.Fail> fails(Decisions d) {
    return d.actions().stream().filter(Decision.Fail.class::isInstance).map(Decision.Fail.class::cast).toList();
  }

  private static void exit(RunState state, String task, int code, Instant when) {
    state.apply(id(task), Endings.exited(when, code));
  }

  @Test
  void theFirstPassReleasesTheFirstGroupAndStartsItInTheSamePass() {
    RunState state = new RunState(run(ROOMY,
        group("g1", task("a", "g1", GIB, 1), task("b", "g1", GIB, 1)),
        group("g2", task("c", "g2", GIB, 1))));

    Decisions d = new Scheduler(ROOMY).decide(state, IDLE, at(0));

    assertThat(d.actions()).containsExactly(
        new Decision.Release(id("a")),
        new Decision.Release(id("b")),
        new Decision.Start(id("a"), 1, Placement.cpu(GIB, 1000)),
        new Decision.Start(id("b"), 1, Placement.cpu(GIB, 1000)));
    assertThat(d.waiting()).containsExactly(Waiting.forTurn(id("c"), "g1"));
    assertThat(d.blockedBy()).isEmpty();
    assertThat(d.blockedCount()).isZero();
  }

  @Test
  void theNextGroupIsReleasedOnlyAfterEveryTaskOfTheGroupBeforeIsTerminal() {
    RunState state = new RunState(run(ROOMY,
        group("g1", task("a", "g1", GIB, 1), task("b", "g1", GIB, 1)),
        group("g2", task("c", "g2", GIB, 1), task("d", "g2", GIB, 1)),
        group("g3", task("e", "g3", GIB, 1))));
    Scheduler scheduler = new Scheduler(ROOMY);
    carryOut(state, scheduler.decide(state, IDLE, at(0)), at(0));

    exit(state, "a", 0, at(1));
    Decisions afterA = scheduler.decide(state, host(at(1), 8, 16 * GIB, 15 * GIB), at(1));
    assertThat(afterA.actions()).as("b still runs, so group g2 waits").isEmpty();

    exit(state, "b", 3, at(2));
    Decisions afterB = scheduler.decide(state, host(at(2), 8, 16 * GIB, 16 * GIB), at(2));
    assertThat(releaseIds(afterB)).as("g1 is over (b failed, which still ends it)").containsExactly("c", "d");
    assertThat(startIds(afterB)).containsExactly("c", "d");
    carryOut(state, afterB, at(2));

    exit(state, "c", 0, at(3));
    assertThat(scheduler.decide(state, IDLE, at(3)).actions()).as("d still runs").isEmpty();
    exit(state, "d", 137, at(4));
    Decisions afterD = scheduler.decide(state, IDLE, at(4));
    assertThat(releaseIds(afterD)).containsExactly("e");
    assertThat(startIds(afterD)).containsExactly("e");
  }

  @Test
  void emptyGroupsAreSkipped() {
    RunState state = new RunState(run(ROOMY,
        new GroupSpec("nothing", List.of()),
        group("g2", task("a", "g2", GIB, 1))));
    Decisions d = new Scheduler(ROOMY).decide(state, IDLE, at(0));
    assertThat(releaseIds(d)).containsExactly("a");
    assertThat(startIds(d)).containsExactly("a");
  }

  @Test
  void aFinishedRunDecidesNothing() {
    RunState state = new RunState(run(ROOMY, group("g", task("a", "g", GIB, 1))));
    Scheduler scheduler = new Scheduler(ROOMY);
    carryOut(state, scheduler.decide(state, IDLE, at(0)), at(0));
    exit(state, "a", 0, at(1));
    assertThat(state.isFinished()).isTrue();
    Decisions d = scheduler.decide(state, IDLE, at(1));
    assertThat(d.actions()).isEmpty();
    assertThat(d.waiting()).isEmpty();
  }

  @Test
  void startsArePriorityFirstThenSubmissionOrder() {
    RunState state = new RunState(run(ROOMY, group("g",
        task("p0-first", "g", 0, 1, 0),
        task("p5-first", "g", 0, 1, 5),
        task("p0-second", "g", 0, 1, 0),
        task("p9", "g", 0, 1, 9),
        task("p5-second", "g", 0, 1, 5),
        task("neg", "g", 0, 1, -1))));
    Decisions d = new Scheduler(ROOMY).decide(state, IDLE, at(0));
    assertThat(releaseIds(d)).as("releases keep submission order")
        .containsExactly("p0-first", "p5-first", "p0-second", "p9", "p5-second", "neg");
    assertThat(startIds(d)).containsExactly("p9", "p5-first", "p5-second", "p0-first", "p0-second", "neg");
  }

  @Test
  void whenOnlySomeFitTheHighestPrioritiesGetTheCores() {
    // 2 CPUs: only two one-core tasks fit, and they are the two with the highest priority.
    HostSnapshot twoCpus = host(T0, 2, 16 * GIB, 16 * GIB);
    RunState state = new RunState(run(ROOMY, group("g",
        task("low", "g", 0, 1, 0), task("high", "g", 0, 1, 2), task("mid", "g", 0, 1, 1))));
    Decisions d = new Scheduler(ROOMY).decide(state, twoCpus, at(0));
    assertThat(startIds(d)).containsExactly("high", "mid");
    assertThat(d.waiting()).as("with no core left the pass stops rather than refusing each task").isEmpty();
    assertThat(d.blockedBy()).get().extracting(Refusal::resource).isEqualTo(Resource.CPUS);
    assertThat(d.blockedCount()).as("low is held back").isEqualTo(1);
  }

  @Test
  void aBigTaskThatDoesNotFitDoesNotBlockSmallerOnesBehindIt() {
    // 16 GiB host with 6 GiB available now: the 10 GiB task must wait, the 2 GiB ones behind it go.
    HostSnapshot busy = host(T0, 8, 16 * GIB, 6 * GIB);
    RunState state = new RunState(run(ROOMY, group("g",
        task("big", "g", 10 * GIB, 1, 9),
        task("small-1", "g", 2 * GIB, 1),
        task("small-2", "g", 2 * GIB, 1))));

    Decisions d = new Scheduler(ROOMY).decide(state, busy, at(0));

    assertThat(startIds(d)).containsExactly("small-1", "small-2");
    assertThat(fails(d)).as("the big task fits on an idle host, so it is not failed").isEmpty();
    assertThat(d.waiting()).singleElement().satisfies(w -> {
      assertThat(w.task()).isEqualTo(id("big"));
      Refusal r = w.refusals().get(0);
      assertThat(r.resource()).isEqualTo(Resource.MEMORY);
      assertThat(r.asked()).isEqualTo(10 * GIB);
      assertThat(r.free()).as("6 GiB available when the big task was tried first").isEqualTo(6 * GIB);
    });
  }

  @Test
  void aWaitingBigTaskStartsOnceMemoryIsBack() {
    RunState state = new RunState(run(ROOMY, group("g",
        task("big", "g", 10 * GIB, 1, 9), task("small", "g", 2 * GIB, 1))));
    Scheduler scheduler = new Scheduler(ROOMY);
    Decisions first = scheduler.decide(state, host(at(0), 8, 16 * GIB, 6 * GIB), at(0));
    carryOut(state, first, at(0));
    assertThat(startIds(first)).containsExactly("small");

    Decisions again = scheduler.decide(state, host(at(1), 8, 16 * GIB, 6 * GIB), at(1));
    assertThat(startIds(again))
        .as("6 GiB available minus small's 2 GiB unmeasured reservation leaves 4 GiB")
        .isEmpty();

    exit(state, "small", 0, at(2));
    Decisions later = scheduler.decide(state, host(at(3), 8, 16 * GIB, 12 * GIB), at(3));
    assertThat(later.starts()).singleElement().satisfies(s -> {
      assertThat(s.task()).isEqualTo(id("big"));
      assertThat(s.attempt()).isEqualTo(1);
    });
  }

  @Test
  void aTaskThatCanNeverFitIsFailedWithAReasonNamingMemory() {
    // 8 GiB host with the default limits: at most 8 GiB - max(1.6 GiB, 4 GB) can ever be reserved.
    SchedulerConfig defaults = SchedulerConfig.builder().build();
    RunState state = new RunState(run(defaults, group("g",
        task("huge", "g", 6 * GIB, 1), task("ok", "g", 512 * MIB, 1))));

    Decisions d = new Scheduler(defaults).decide(state, host(T0, 8, 8 * GIB, 8 * GIB), at(0));

    assertThat(fails(d)).singleElement().satisfies(f -> {
      assertThat(f.task()).isEqualTo(id("huge"));
      assertThat(f.reason())
          .startsWith("can never be placed: memory on host")
          .contains("asked 6 GiB")
          .contains("remain-limit.memory");
    });
    assertThat(startIds(d)).containsExactly("ok");
    assertThat(d.waiting()).isEmpty();
  }

  /** Two cores for Berth and one task asking for three. */
  private static final SchedulerConfig TWO_CORES = unlimited().set(SchedulerKeys.CORES, 2).build();

  private static RunState wideTaskOnTwoCores() {
    return new RunState(run(TWO_CORES, group("g", task("wide", "g", 0, 3))));
  }

  @Test
  void aTaskAskingForMoreCoresThanExistIsFailedWithAReasonNamingCpus() {
    RunState state = wideTaskOnTwoCores();
    Decisions d = new Scheduler(TWO_CORES).decide(state, IDLE, at(0));
    assertThat(fails(d)).singleElement().extracting(Decision.Fail::reason).asString()
        .contains("cpus on host")
        .contains("asked 3")
        .contains("scheduler.cores");
    assertThat(d.starts()).isEmpty();
  }

  @Test
  void aFailedImpossibleTaskIsReleasedFirstSoTheFailIsALegalMove() {
    RunState state = wideTaskOnTwoCores();
    Decisions d = new Scheduler(TWO_CORES).decide(state, IDLE, at(0));
    assertThat(d.actions()).extracting(Decision::getClass).containsExactly(Decision.Release.class, Decision.Fail.class);
    carryOut(state, d, at(0));
    assertThat(state.task(id("wide")).state()).isEqualTo(TaskState.FAILED);
    assertThat(state.task(id("wide")).history().finalReason()).get().asString().contains("can never be placed");
    assertThat(state.isFinished()).isTrue();
  }

  @Test
  void theProcessCapHoldsBackTheRestAndSaysHowMany() {
    SchedulerConfig twoProcesses = unlimited().set(SchedulerKeys.MAX_PROCESS, 2).build();
    RunState state = new RunState(run(twoProcesses, group("g",
        task("a", "g", 0, 0), task("b", "g", 0, 0), task("c", "g", 0, 0),
        task("d", "g", 0, 0), task("e", "g", 0, 0))));

    Decisions d = new Scheduler(twoProcesses).decide(state, IDLE, at(0));

    assertThat(startIds(d)).containsExactly("a", "b");
    assertThat(d.blockedBy()).get().satisfies(r -> {
      assertThat(r.resource()).isEqualTo(Resource.PROCESSES);
      assertThat(r.rule()).isEqualTo("scheduler.max-process");
      assertThat(r.reserved()).as("2 processes admitted this pass").isEqualTo(2);
    });
    assertThat(d.blockedCount()).as("c, d and e are held back").isEqualTo(3);
    assertThat(d.waiting()).as("held-back tasks are counted, not listed").isEmpty();
  }

  @Test
  void theProcessCapCountsTasksAlreadyRunning() {
    SchedulerConfig twoProcesses = unlimited().set(SchedulerKeys.MAX_PROCESS, 2).build();
    RunState state = new RunState(run(twoProcesses, group("g",
        task("a", "g", 0, 0), task("b", "g", 0, 0), task("c", "g", 0, 0))));
    Scheduler scheduler = new Scheduler(twoProcesses);
    carryOut(state, scheduler.decide(state, IDLE, at(0)), at(0));

    Decisions full = scheduler.decide(state, IDLE, at(1));
    assertThat(full.starts()).isEmpty();
    assertThat(full.blockedBy()).get().extracting(Refusal::resource).isEqualTo(Resource.PROCESSES);
    assertThat(full.blockedCount()).isEqualTo(1);

    exit(state, "a", 0, at(2));
    Decisions freed = scheduler.decide(state, IDLE, at(2));
    assertThat(startIds(freed)).containsExactly("c");
    assertThat(freed.blockedBy()).isEmpty();
  }

  @Test
  void impossibleTasksAreFailedEvenWhenTheProcessCapBlocksThePass() {
    SchedulerConfig oneProcess = unlimited().set(SchedulerKeys.MAX_PROCESS, 1).build();
    RunState state = new RunState(run(oneProcess, group("g",
        task("a", "g", 0, 1), task("b", "g", 0, 1), task("wide", "g", 0, 64))));
    Decisions d = new Scheduler(oneProcess).decide(state, IDLE, at(0));
    assertThat(startIds(d)).containsExactly("a");
    assertThat(fails(d)).extracting(f -> f.task().value()).containsExactly("wide");
    assertThat(d.blockedCount()).as("only b is held back; wide is failed, not blocked").isEqualTo(1);
  }

  @Test
  void aCpuBusyWithOtherWorkBlocksEveryStartButStillReleases() {
    SchedulerConfig gate = unlimited().set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 0.5).build();
    HostSnapshot busy = host(T0, 4, 0.9, 16 * GIB, 16 * GIB, Map.of());
    RunState state = new RunState(run(gate, group("g", task("a", "g", 0, 1), task("b", "g", 0, 1))));

    Decisions d = new Scheduler(gate).decide(state, busy, at(0));

    assertThat(releaseIds(d)).containsExactly("a", "b");
    assertThat(d.starts()).isEmpty();
    assertThat(d.blockedBy()).get().satisfies(r -> {
      assertThat(r.resource()).isEqualTo(Resource.CPU_UTILIZATION);
      assertThat(r.free()).as("90%% foreign load in permille").isEqualTo(900);
      assertThat(r.asked()).isEqualTo(500);
    });
    assertThat(d.blockedCount()).isEqualTo(2);
  }

  @Test
  void cpuLoadFromBerthsOwnTasksDoesNotBlock() {
    SchedulerConfig gate = unlimited().set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 0.5).build();
    RunState state = new RunState(run(gate, group("g",
        task("a", "g", 0, 2), task("b", "g", 0, 2), task("c", "g", 0, 2))));
    Scheduler scheduler = new Scheduler(gate);
    Decisions first = scheduler.decide(state, host(at(0), 4, 0.0, 16 * GIB, 16 * GIB, Map.of()), at(0));
    assertThat(startIds(first)).as("4 CPUs hold two 2-core tasks").containsExactly("a", "b");
    carryOut(state, first, at(0));
    exit(state, "a", 0, at(5));

    // b keeps 2 of 4 CPUs busy (50%); 25% more comes from elsewhere: 25% foreign < 50% limit.
    Decisions ownLoad = scheduler.decide(state, host(at(6), 4, 0.75, 16 * GIB, 16 * GIB, Map.of()), at(6));
    assertThat(startIds(ownLoad)).containsExactly("c");

    // At 100% the foreign share is 50%, which reaches the limit.
    Decisions foreignLoad = scheduler.decide(state, host(at(6), 4, 1.0, 16 * GIB, 16 * GIB, Map.of()), at(6));
    assertThat(foreignLoad.starts()).isEmpty();
    assertThat(foreignLoad.blockedBy()).get().extracting(Refusal::free).isEqualTo(500L);
  }

  @Test
  void runningTasksReservationsCountAgainstNewStarts() {
    RunState state = new RunState(run(ROOMY, group("g",
        task("a", "g", 6 * GIB, 1), task("b", "g", 6 * GIB, 1), task("c", "g", 6 * GIB, 1))));
    Scheduler scheduler = new Scheduler(ROOMY);
    HostSnapshot tenFree = host(at(0), 8, 16 * GIB, 10 * GIB);
    Decisions first = scheduler.decide(state, tenFree, at(0));
    assertThat(startIds(first)).as("10 GiB free: one 6 GiB task").containsExactly("a");
    carryOut(state, first, at(1));

    // A reading taken before a launched: its 6 GiB still count in full.
    Decisions stale = scheduler.decide(state, tenFree, at(2));
    assertThat(stale.starts()).isEmpty();

    // A later reading sees a using 5 GiB: only 1 GiB of its reservation is outstanding.
    HostSnapshot measured = host(at(3), 8, -1, 16 * GIB, 5 * GIB + 1 * GIB + 512 * MIB, Map.of(id("a"), 5 * GIB));
    assertThat(startIds(scheduler.decide(state, measured, at(3))))
        .as("6.5 GiB available - 1 GiB outstanding = 5.5 GiB < 6 GiB")
        .isEmpty();
    HostSnapshot roomier = host(at(4), 8, -1, 16 * GIB, 7 * GIB, Map.of(id("a"), 5 * GIB));
    assertThat(startIds(scheduler.decide(state, roomier, at(4))))
        .as("7 GiB available - 1 GiB outstanding = 6 GiB")
        .containsExactly("b");
  }

  @Test
  void aRetriedTaskStartsWithTheNextAttemptNumberAndABiggerReservationAfterAHostOom() {
    RunState state = new RunState(run(ROOMY, group("g", task("a", "g", GIB, 1))));
    Scheduler scheduler = new Scheduler(ROOMY);
    carryOut(state, scheduler.decide(state, IDLE, at(0)), at(0));
    state.apply(id("a"), new TaskEvent.Ended(at(1), Outcome.HOST_OOM, 137, "out of memory", TaskState.READY));

    Decisions d = scheduler.decide(state, IDLE, at(2));

    assertThat(d.actions()).as("1 GiB grown by scheduler.oom-growth 1.5")
        .containsExactly(new Decision.Start(id("a"), 2, Placement.cpu(GIB * 3 / 2, 1000)));
    carryOut(state, d, at(2));
    assertThat(state.task(id("a")).history().attemptCount()).isEqualTo(2);
  }

  @Test
  void decideDoesNotChangeTheState() {
    RunState state = new RunState(run(ROOMY,
        group("g1", task("a", "g1", GIB, 1), task("b", "g1", 20 * GIB, 1), task("c", "g1", GIB, 1)),
        group("g2", task("d", "g2", GIB, 1))));
    Scheduler scheduler = new Scheduler(ROOMY);
    state.apply(id("a"), new TaskEvent.Released(at(0)));
    String before = fingerprint(state);

    Decisions d = scheduler.decide(state, host(at(0), 2, 16 * GIB, 16 * GIB), at(0));

    assertThat(d.actions()).as("the pass did decide something").isNotEmpty();
    assertThat(fingerprint(state)).isEqualTo(before);
    assertThat(scheduler.decide(state, host(at(0), 2, 16 * GIB, 16 * GIB), at(0)))
        .as("deciding again from the unchanged state gives the same result")
        .isEqualTo(d);
  }

  @Test
  void theSameInputsGiveEqualDecisions() {
    SchedulerConfig config = unlimited().set(SchedulerKeys.MAX_PROCESS, 3).set(SchedulerKeys.CORES, 3)
        .set(SchedulerKeys.REMAIN_MEMORY, GIB).build();
    RunSpec spec = run(config,
        group("g1", task("a", "g1", 3 * GIB, 1, 1), task("b", "g1", 5 * GIB, 0.5),
            task("c", "g1", 64 * GIB, 1), task("d", "g1", 1 * GIB, 2, 3), task("e", "g1", 0, 0)),
        group("g2", task("f", "g2", GIB, 1)));
    HostSnapshot snapshot = host(at(0), 4, 0.3, 32 * GIB, 9 * GIB, Map.of());

    Decisions one = new Scheduler(config).decide(new RunState(spec), snapshot, at(0));
    Decisions two = new Scheduler(config).decide(new RunState(spec), snapshot, at(0));

    assertThat(two).isEqualTo(one);
    assertThat(one.actions()).as("a pass that exercises starts, fails and refusals").hasSizeGreaterThan(5);
  }

  @Test
  void startsOnlyListsTheStartDecisionsInOrder() {
    Decisions d = new Decisions(List.of(
        new Decision.Release(id("a")),
        new Decision.Start(id("b"), 1, Placement.cpu(0, 0)),
        new Decision.Fail(id("c"), "no"),
        new Decision.Start(id("a"), 1, Placement.cpu(0, 0))), List.of(), java.util.Optional.empty(), 0);
    assertThat(startIds(d)).containsExactly("b", "a");
  }

  @Test
  void theSchedulerKeepsItsConfiguration() {
    assertThat(new Scheduler(ROOMY).config()).isSameAs(ROOMY);
  }

  private static String fingerprint(RunState state) {
    StringBuilder sb = new StringBuilder();
    for (TaskRecord r : state.tasks()) {
      sb.append(r.spec().id()).append('=').append(r.state()).append('/').append(r.history().events().size()).append(' ');
    }
    sb.append("ready=").append(state.ready().stream().map(r -> r.spec().id()).toList());
    sb.append(" running=").append(state.running().keySet());
    sb.append(" active=").append(state.activeGroup());
    return sb.toString();
  }
}

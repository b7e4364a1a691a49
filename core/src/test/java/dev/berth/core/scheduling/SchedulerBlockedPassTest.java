package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.at;
import static dev.berth.core.scheduling.SchedulingFixtures.carryOut;
import static dev.berth.core.scheduling.SchedulingFixtures.host;
import static dev.berth.core.scheduling.SchedulingFixtures.id;
import static dev.berth.core.scheduling.SchedulingFixtures.run;
import static dev.berth.core.scheduling.SchedulingFixtures.unlimited;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.resources.Resource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pass that can start nothing more (no process slot, a busy CPU) still decides what it must for
 * the tasks behind that point: queue-timeouts fall due, retry delays wake it, and a task released
 * in the pass that can never run here fails at once; the rest are counted as blocked.
 */
class SchedulerBlockedPassTest {

  private static final HostSnapshot IDLE = host(T0, 8, 16 * GIB, 16 * GIB);

  private static TaskSpec.Builder t(String id) {
    return TaskSpec.builder(id, "g").command("run", id).memoryBytes(0).cpus(1);
  }

  private static RunState state(SchedulerConfig config, TaskSpec.Builder... tasks) {
    return new RunState(run(config, new GroupSpec("g", java.util.Arrays.stream(tasks).map(TaskSpec.Builder::build).toList())));
  }

  private static List<String> settled(Decisions d, Class<? extends Decision> kind) {
    return d.actions().stream().filter(kind::isInstance).map(a -> a.task().value()).toList();
  }

  @Test
  void aQueueTimeoutBehindAFullProcessCapStillFallsDue() {
    SchedulerConfig one = unlimited().set(SchedulerKeys.MAX_PROCESS, 1).build();
    RunState state = state(one, t("running"), t("plain1"), t("plain2"), t("impatient").queueTimeout(Duration.ofSeconds(3)));
    Scheduler scheduler = new Scheduler(one);
    carryOut(state, scheduler.decide(state, IDLE, at(0)), at(0));

    Decisions early = scheduler.decide(state, IDLE, at(1));
    assertThat(early.actions()).isEmpty();
    assertThat(early.blockedCount()).isEqualTo(3);
    assertThat(early.wakeAt()).as("the queue-timeout's moment").contains(at(3));

    Decisions due = scheduler.decide(state, IDLE, at(5));
    assertThat(settled(due, Decision.Settle.class)).containsExactly("impatient");
    assertThat(due.blockedCount()).as("plain1 and plain2").isEqualTo(2);
  }

  @Test
  void aRetryDelayBehindAFullProcessCapSaysWhenToLookAgain() {
    SchedulerConfig one = unlimited().set(SchedulerKeys.MAX_PROCESS, 1).build();
    RunState state = state(one, t("flaky").set(TaskKeys.RETRIES, 1)
        .set(TaskKeys.RETRY_DELAY, Duration.ofSeconds(10)), t("running"), t("plain"));
    Scheduler scheduler = new Scheduler(one);
    carryOut(state, scheduler.decide(state, IDLE, at(0)), at(0));
    state.apply(id("flaky"), Retries.retryIfAllowed(state.task(id("flaky")), Endings.exited(at(1), 1)));
    carryOut(state, scheduler.decide(state, IDLE, at(1)), at(1)); // running starts in the freed slot

    Decisions d = scheduler.decide(state, IDLE, at(2));

    assertThat(state.task(id("flaky")).state()).isEqualTo(TaskState.READY);
    assertThat(d.starts()).isEmpty();
    assertThat(d.blockedBy()).get().extracting(r -> r.resource()).isEqualTo(Resource.PROCESSES);
    assertThat(d.wakeAt()).as("the end of flaky's retry delay").contains(at(11));
  }

  @Test
  void aTaskReleasedIntoABlockedPassThatCanNeverFitFailsAtOnce() {
    SchedulerConfig gate = unlimited().set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 0.5).build();
    HostSnapshot busy = host(T0, 8, 0.9, 16 * GIB, 16 * GIB, Map.of());
    RunState state = state(gate, t("a"), t("filler"),
        t("b").after(Dependency.allSucceeded(List.of(id("a")))),
        t("wide").cpus(64).after(Dependency.allSucceeded(List.of(id("a")))));
    Scheduler scheduler = new Scheduler(gate);
    carryOut(state, scheduler.decide(state, busy, at(0)), at(0)); // a and filler released, nothing starts
    carryOut(state, scheduler.decide(state, IDLE, at(1)), at(1)); // both start
    state.apply(id("a"), Endings.exited(at(2), 0));

    Decisions d = scheduler.decide(state, busy, at(3));

    assertThat(settled(d, Decision.Release.class)).containsExactly("b", "wide");
    assertThat(settled(d, Decision.Fail.class)).containsExactly("wide");
    assertThat(d.blockedBy()).get().extracting(r -> r.resource()).isEqualTo(Resource.CPU_UTILIZATION);
    assertThat(d.blockedCount()).as("b alone").isEqualTo(1);
  }

  @Test
  void tasksThatChangeWhileWaitingAreIndexedUntilTheyLeaveTheReadySet() {
    SchedulerConfig one = unlimited().set(SchedulerKeys.MAX_PROCESS, 1).build();
    RunState state = state(one, t("plain"), t("impatient").queueTimeout(Duration.ofSeconds(3)));
    carryOut(state, new Scheduler(one).decide(state, IDLE, at(0)), at(0));

    assertThat(state.readyChangingWhileWaiting()).extracting(r -> r.spec().id().value()).containsExactly("impatient");
    state.apply(id("impatient"), new TaskEvent.Settled(at(5), TaskState.TIMED_OUT, "waited"));
    assertThat(state.readyChangingWhileWaiting()).isEmpty();
  }
}

package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Small builders for the scheduling tests. (Core's tests cannot use the testkit module, which
 * depends on core.)
 */
final class SchedulingFixtures {

  static final long MIB = 1L << 20;
  static final long GIB = 1L << 30;
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private SchedulingFixtures() {}

  /** No process cap, no CPU gate, no memory floor. */
  static SchedulerConfig.Builder unlimited() {
    return SchedulerConfig.builder()
        .set(SchedulerKeys.MAX_PROCESS, 0)
        .set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 1.0)
        .set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 1.0)
        .set(SchedulerKeys.REMAIN_MEMORY, 0L);
  }

  static TaskSpec task(String id, String group, long memoryBytes, double cpus, int priority) {
    return TaskSpec.builder(id, group)
        .command("run", id)
        .memoryBytes(memoryBytes)
        .cpus(cpus)
        .priority(priority)
        .build();
  }

  static TaskSpec task(String id, String group, long memoryBytes, double cpus) {
    return task(id, group, memoryBytes, cpus, 0);
  }

  static GroupSpec group(String name, TaskSpec... tasks) {
    return new GroupSpec(name, List.of(tasks));
  }

  static RunSpec run(SchedulerConfig config, GroupSpec... groups) {
    return new RunSpec("run", "runs/run", config, List.of(groups));
  }

  /** A reading at {@code at} with unknown CPU utilization and no task measured. */
  static HostSnapshot host(Instant at, int cpus, long total, long available) {
    return new HostSnapshot(at, cpus, -1, total, available, new TreeMap<>());
  }

  static HostSnapshot host(Instant at, int cpus, double utilization, long total, long available,
      Map<TaskId, Long> measured) {
    return new HostSnapshot(at, cpus, utilization, total, available, new TreeMap<>(measured));
  }

  static TaskId id(String value) {
    return TaskId.of(value);
  }

  /** {@code seconds} after {@link #T0}, to the millisecond. */
  static Instant at(double seconds) {
    return T0.plusMillis(Math.round(seconds * 1000));
  }

  static GroupSpec group(String name, TaskSpec.Builder... tasks) {
    return new GroupSpec(name, Arrays.stream(tasks).map(TaskSpec.Builder::build).toList());
  }

  /** A run of these groups, started at {@link #T0}. */
  static RunState startedRun(SchedulerConfig config, boolean parallel, GroupSpec... groups) {
    RunState s = new RunState(new RunSpec("run", "runs/run", config, List.of(groups), parallel));
    s.started(T0);
    return s;
  }

  /** One decision pass at {@code at}, carried out as {@link #carryOut} does. */
  static Decisions pass(Scheduler scheduler, RunState state, HostSnapshot host, Instant at) {
    Decisions d = scheduler.decide(state, host, at);
    carryOut(state, d, at);
    return d;
  }

  /** Ends the task's running attempt with this exit code, retrying as its policy allows. */
  static TaskEvent.Ended end(RunState state, String task, int code, Instant at) {
    TaskEvent.Ended e = Retries.ending(state.task(id(task)), at, code, Optional.empty());
    state.apply(id(task), e);
    return e;
  }

  static TaskState stateOf(RunState state, String task) {
    return state.task(id(task)).state();
  }

  static List<Decision.Settle> settles(Decisions d) {
    return d.actions().stream().filter(Decision.Settle.class::isInstance).map(Decision.Settle.class::cast).toList();
  }

  /**
   * Does what the runtime does with a pass: release, launch (one-stage), fail and settle, at
   * {@code at}. Kill decisions are left to the caller, which decides how the process exits.
   */
  static void carryOut(RunState state, Decisions decisions, Instant at) {
    for (Decision d : decisions.actions()) {
      TaskEvent e;
      if (d instanceof Decision.Release) {
        e = new TaskEvent.Released(at);
      } else if (d instanceof Decision.Start s) {
        e = new TaskEvent.Launched(at, s.attempt(), s.placement(), 1000 + state.task(s.task()).seq(), false, s.learned());
      } else if (d instanceof Decision.Fail f) {
        e = new TaskEvent.Settled(at, TaskState.FAILED, f.reason());
      } else if (d instanceof Decision.Settle s) {
        e = new TaskEvent.Settled(at, s.state(), s.reason());
      } else {
        continue;
      }
      state.apply(d.task(), e);
    }
  }
}

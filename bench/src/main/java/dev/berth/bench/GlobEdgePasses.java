package dev.berth.bench;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.Retries;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.Scheduler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Runs {@code N} tasks {@code m-i} and {@code N} tasks {@code r-i}, each {@code r} after every
 * {@code m} (as {@code after: ["m-*"]} makes them), through the core alone: a decision pass, its
 * releases and starts applied, then one running task ends, until every task ended; 20 processes at
 * once, no I/O. Prints the seconds the passes took. With {@code plain} the {@code r} tasks have no
 * edge, for comparison (docs/benchmarks.md, section 10).
 *
 * <p>Run with {@code java -XX:+UseSerialGC -cp berth-benchmarks.jar dev.berth.bench.GlobEdgePasses N [plain]}.
 */
public final class GlobEdgePasses {

  private GlobEdgePasses() {}

  /** Entry point: the count N of each kind, and {@code plain} for no edges. */
  public static void main(String[] args) {
    int n = Integer.parseInt(args[0]);
    boolean edges = args.length < 2 || !args[1].equals("plain");
    List<TaskId> parents = new ArrayList<>();
    List<TaskSpec> tasks = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      parents.add(TaskId.of("m-" + i));
      tasks.add(TaskSpec.builder("m-" + i, "g").command("true").memoryBytes(Fixtures.MIB).cpus(0).build());
    }
    Dependency all = Dependency.allSucceeded(parents);
    for (int i = 0; i < n; i++) {
      TaskSpec.Builder r = TaskSpec.builder("r-" + i, "g").command("true").memoryBytes(Fixtures.MIB).cpus(0);
      tasks.add((edges ? r.after(all) : r).build());
    }
    SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.MAX_PROCESS, 20)
        .set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 1.0).set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 1.0)
        .set(SchedulerKeys.REMAIN_MEMORY, 0L).build();
    RunState state = new RunState(new RunSpec("run", "runs/run", config, List.of(new GroupSpec("g", tasks)), false));
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    state.started(now);
    Scheduler scheduler = new Scheduler(config);
    long start = System.nanoTime();
    int passes = 0;
    long pid = 1000;
    while (!state.isFinished()) {
      now = now.plusMillis(10);
      Decisions decided = scheduler.decide(state, new HostSnapshot(now, 16, -1, 64L << 30, 64L << 30, new TreeMap<>()), now);
      passes++;
      for (Decision d : decided.actions()) {
        if (d instanceof Decision.Release) {
          state.apply(d.task(), new TaskEvent.Released(now));
        } else if (d instanceof Decision.Start s) {
          state.apply(d.task(), new TaskEvent.Launched(now, s.attempt(), s.placement(), pid++, false, s.learned()));
        } else if (d instanceof Decision.Settle s) {
          state.apply(d.task(), new TaskEvent.Settled(now, s.state(), s.reason()));
        }
      }
      if (!state.running().isEmpty()) {
        TaskId first = state.running().firstKey();
        state.apply(first, Retries.ending(state.task(first), now, 0, Optional.empty()));
      }
    }
    System.out.printf("%d tasks, %s: %d passes in %.2f s%n", 2 * n, edges ? "r after m-*" : "no edges", passes,
        (System.nanoTime() - start) / 1e9);
  }
}

package dev.berth.bench;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds runs, run states and host snapshots shaped like the ones the benchmarks measure. */
final class Fixtures {

  static final long MIB = 1L << 20;
  static final long GIB = 1L << 30;
  static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

  private Fixtures() {}

  /**
   * One group of {@code count} matrix-like tasks, as the spec parser would expand them: every
   * string is its own object, because parsed YAML values are not interned.
   */
  static RunSpec sweep(int count, SchedulerConfig config, long memoryBytes, double cpus) {
    List<TaskSpec> tasks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String lr = fresh("0.0" + (i % 10));
      String seed = fresh(Integer.toString(i));
      tasks.add(TaskSpec.builder("train-" + lr + "-" + seed, fresh("train"))
          .command(fresh("python3"), fresh("sweeps/quickstart/train.py"), fresh("--lr"), lr, fresh("--seed"), seed)
          .params(Map.of(fresh("lr"), lr, fresh("seed"), seed))
          .memoryBytes(memoryBytes)
          .cpus(cpus)
          .build());
    }
    return new RunSpec("bench", "berth-out/bench", config, List.of(new GroupSpec("train", tasks)));
  }

  /** A copy that shares no characters with the literal, as a parser's output would not. */
  static String fresh(String s) {
    return new String(s.toCharArray());
  }

  /** Releases every task (QUEUED to READY), as the first decision pass of the group does. */
  static void releaseAll(RunState state) {
    for (TaskRecord r : state.tasks()) {
      state.apply(r.spec().id(), new TaskEvent.Released(T0));
    }
  }

  /** Launches the first {@code n} ready tasks with their own request as placement. */
  static void launchFirst(RunState state, int n) {
    List<TaskRecord> first = new ArrayList<>(state.ready()).subList(0, n);
    long pid = 1000;
    for (TaskRecord r : first) {
      Placement p = Placement.cpu(r.spec().resources().memoryBytes(), r.spec().resources().milliCpus());
      state.apply(r.spec().id(), new TaskEvent.Launched(T0, 1, p, pid++, false));
    }
  }

  /**
   * A probe reading taken after every launch, with each running task measured at its reservation
   * and an idle CPU, so that only Berth's own reservations limit admission.
   */
  static HostSnapshot host(RunState state, int cpus, long totalMemory) {
    TreeMap<TaskId, Long> measured = new TreeMap<>();
    long used = 0;
    for (Map.Entry<TaskId, TaskEvent.Launched> e : state.running().entrySet()) {
      measured.put(e.getKey(), e.getValue().placement().memoryBytes());
      used += e.getValue().placement().memoryBytes();
    }
    return new HostSnapshot(T0.plusSeconds(1), cpus, 0.0, totalMemory, totalMemory - used, measured);
  }
}

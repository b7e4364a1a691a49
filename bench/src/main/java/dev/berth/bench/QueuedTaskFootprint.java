package dev.berth.bench;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.scheduling.RunState;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Arrays;

/**
 * Measures the heap a queued task keeps alive: builds runs of {@code N} tasks (default 10,000)
 * and compares the used heap after full collections, before and after.
 *
 * <p>Prints three figures per task: the parsed spec alone ({@link RunSpec}, what the spec parser
 * hands over), the {@link RunState} built on top of it, and the same state once every task is
 * released (one event and one ready-set entry more per task).
 *
 * <p>Run with {@code java -XX:+UseSerialGC -cp berth-benchmarks.jar dev.berth.bench.QueuedTaskFootprint [N]}:
 * a serial collector makes {@code System.gc()} a full, deterministic collection.
 */
public final class QueuedTaskFootprint {

  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
  private static final int ROUNDS = 5;

  private QueuedTaskFootprint() {}

  /** Entry point; the optional argument is the task count. */
  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    SchedulerConfig config = SchedulerConfig.DEFAULTS;
    // Warm up class loading and the JIT so their allocations do not count against the first round.
    new RunState(Fixtures.sweep(1_000, config, Fixtures.MIB, 1));

    long[] specBytes = new long[ROUNDS];
    long[] stateBytes = new long[ROUNDS];
    long[] releasedBytes = new long[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
      long[] r = measureOnce(n, config);
      specBytes[round] = r[0];
      stateBytes[round] = r[1];
      releasedBytes[round] = r[2];
    }
    System.out.printf("tasks per run: %d (median of %d rounds)%n", n, ROUNDS);
    print("spec (RunSpec, as parsed)", median(specBytes), n);
    print("run state, queued", median(stateBytes), n);
    print("run state, released", median(releasedBytes), n);
    print("total, queued task", median(specBytes) + median(stateBytes), n);
    print("total, released task", median(specBytes) + median(releasedBytes), n);
  }

  /**
   * One round in its own frame, so that nothing from the previous round is still reachable from
   * a local variable when the next round takes its baseline.
   */
  private static long[] measureOnce(int n, SchedulerConfig config) {
    long base = usedAfterGc();
    RunSpec spec = Fixtures.sweep(n, config, Fixtures.MIB, 1);
    long afterSpec = usedAfterGc();
    RunState state = new RunState(spec);
    long afterState = usedAfterGc();
    Fixtures.releaseAll(state);
    long afterRelease = usedAfterGc();
    if (state.tasks().size() != n) {
      throw new IllegalStateException("lost tasks");
    }
    return new long[] {afterSpec - base, afterState - afterSpec, afterRelease - afterSpec};
  }

  private static void print(String what, long bytes, int n) {
    System.out.printf("%-28s %,12d bytes  %,8.0f bytes/task%n", what, bytes, bytes / (double) n);
  }

  private static long usedAfterGc() {
    long used = Long.MAX_VALUE;
    // Several collections: one may leave objects that a finalizer or reference queue frees later.
    for (int i = 0; i < 4; i++) {
      System.gc();
      used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}

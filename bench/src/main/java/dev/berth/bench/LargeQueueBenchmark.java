package dev.berth.bench;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.Scheduler;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decision passes over a queue of 10,000 one-core tasks on a big host (128 cores, 1 TiB, no process
 * cap unless {@code maxProcess} says otherwise). The time per placed task is the time per pass
 * divided by the tasks the pass places.
 *
 * <ul>
 *   <li>{@code first-pass}: all 10,000 tasks queued, host empty: the pass releases every task and
 *       places 128;
 *   <li>{@code refill-one}: the tasks already released, 127 running: one task just ended and the
 *       pass places one task in its slot. This is the steady state of a long queue.
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class LargeQueueBenchmark {

  static final int TASKS = 10_000;
  static final int CORES = 128;
  static final long MEMORY = 1L << 40;

  /** A run of 10,000 tasks in the requested shape, shared by every call of a trial. */
  @State(Scope.Benchmark)
  public static class Queue {
    @Param({"first-pass", "refill-one"})
    String scenario;

    /** {@code scheduler.max-process}: 0 (no cap) by default; {@code -p maxProcess=128} ends each pass at the cap. */
    @Param({"0"})
    int maxProcess;

    Scheduler scheduler;
    RunSpec spec;
    RunState state;
    HostSnapshot host;

    /** Builds the run; {@code decide} does not change it, so one copy serves the whole trial. */
    @Setup(Level.Trial)
    public void setUp() {
      SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.MAX_PROCESS, maxProcess).build();
      scheduler = new Scheduler(config);
      spec = Fixtures.sweep(TASKS, config, 256 * Fixtures.MIB, 1);
      state = fresh();
      host = Fixtures.host(state, CORES, MEMORY);
      int placed = scheduler.decide(state, host, Fixtures.T0).starts().size();
      if (placed != placedPerPass()) {
        throw new IllegalStateException("expected " + placedPerPass() + " starts per pass, got " + placed);
      }
    }

    /** Tasks one pass places in this scenario. */
    int placedPerPass() {
      return scenario.equals("first-pass") ? CORES : 1;
    }

    /** A new run state in this scenario's shape. */
    RunState fresh() {
      RunState s = new RunState(spec);
      if (scenario.equals("refill-one")) {
        Fixtures.releaseAll(s);
        Fixtures.launchFirst(s, CORES - 1);
      }
      return s;
    }
  }

  /** A run that the benchmark changes, rebuilt before every call. */
  @State(Scope.Thread)
  public static class Mutable {
    RunState state;
    HostSnapshot host;

    /** Rebuilds the run: applying the decisions moves tasks, so each call needs the original. */
    @Setup(Level.Invocation)
    public void setUp(Queue queue) {
      state = queue.fresh();
      host = Fixtures.host(state, CORES, MEMORY);
    }
  }

  /** One pass. */
  @Benchmark
  public void decide(Queue q, Blackhole bh) {
    bh.consume(q.scheduler.decide(q.state, q.host, Fixtures.T0));
  }

  /** One pass, then what the engine does with it: record each release and launch in the state. */
  @Benchmark
  public void decideAndApply(Queue q, Mutable m, Blackhole bh) {
    Decisions d = q.scheduler.decide(m.state, m.host, Fixtures.T0);
    long pid = 100_000;
    for (Decision a : d.actions()) {
      if (a instanceof Decision.Release r) {
        m.state.apply(r.task(), new TaskEvent.Released(Fixtures.T0));
      } else if (a instanceof Decision.Start s) {
        m.state.apply(s.task(), new TaskEvent.Launched(Fixtures.T0, s.attempt(), s.placement(), pid++, false));
      }
    }
    bh.consume(m.state);
  }
}

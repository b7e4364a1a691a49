package dev.berth.bench;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.Scheduler;
import java.time.Instant;
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
 * A decision pass that starts nothing: 500 ready tasks of one core each on a 2-core host where 2
 * tasks already run. This is the pass Berth makes after every event that frees nothing, e.g. a
 * probe tick while the host is full.
 *
 * <p>{@code maxProcess=2} stops the pass at the process cap (one refusal for the whole pass);
 * {@code maxProcess=20} (the default) lets every task reach the CPU check and be refused one by one.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class RefusedPassBenchmark {

  private static final int READY = 500;
  private static final int RUNNING = 2;

  @Param({"2", "20"})
  int maxProcess;

  private Scheduler scheduler;
  private RunState state;
  private HostSnapshot host;

  /** Builds the run once: {@code decide} does not change the state, so every call sees the same pass. */
  @Setup(Level.Trial)
  public void setUp() {
    SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.MAX_PROCESS, maxProcess).build();
    RunSpec spec = Fixtures.sweep(READY + RUNNING, config, Fixtures.MIB, 1);
    state = new RunState(spec);
    Fixtures.releaseAll(state);
    Fixtures.launchFirst(state, RUNNING);
    scheduler = new Scheduler(config);
    host = Fixtures.host(state, 2, 24 * Fixtures.GIB);
    Decisions d = scheduler.decide(state, host, Instant.EPOCH);
    if (!d.starts().isEmpty()) {
      throw new IllegalStateException("expected a pass that starts nothing, got " + d.starts().size());
    }
  }

  /** One pass. */
  @Benchmark
  public void decide(Blackhole bh) {
    bh.consume(scheduler.decide(state, host, Fixtures.T0));
  }
}

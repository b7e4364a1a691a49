package dev.berth.bench;

import dev.berth.host.HostLedgers;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Demand;
import dev.berth.spi.SharedReservations.Progress;
import dev.berth.spi.SharedReservations.Share;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A reservation's round trip through the host ledger's SQLite file, as an attempt makes it: take
 * 10 GiB of a simulated device before the process starts, release it when the process ends (two
 * transactions, each {@code BEGIN IMMEDIATE}); a scheduling pass that releases the task that ended
 * and claims the next in one transaction; and the look a run takes at each probe tick. Three
 * other runs hold shares and have tasks waiting, so every transaction reads what a busy host holds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class HostLedgerBenchmark {

  private static final long GIB = 1L << 30;
  private static final Share DEVICE = new Share("sim:8x80GiB#0", "cuda:0", 10 * GIB, 80 * GIB);

  private Path dir;
  private final List<SharedReservations> ledgers = new ArrayList<>();
  private SharedReservations mine;
  private long sequence;
  private final ArrayDeque<String> running = new ArrayDeque<>(); // the pass benchmark's tasks

  /** Makes a host ledger with three other runs that hold and wait. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("host-ledger-benchmark");
    for (int run = 0; run < 4; run++) {
      SharedReservations l = HostLedgers.open(dir);
      l.join(HostLedgers.self("run-" + run, "/runs/" + run), Instant.now());
      ledgers.add(l);
      if (run > 0) {
        for (int task = 0; task < 4; task++) {
          l.take(new Claim("t" + task, 0, 1000, 64_000, List.of(new Share("sim:8x80GiB#" + (task + run),
              "cuda:" + (task + run), 10 * GIB, 80 * GIB))), Instant.now());
        }
        l.waiting(List.of(new Demand("w", 0, 1000, 0, 100 * GIB, 1, List.of(DEVICE))), Instant.now());
      }
    }
    mine = ledgers.get(0);
  }

  /** Closes the ledgers and removes the folder. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    ledgers.forEach(SharedReservations::close);
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** Take, then release: what one attempt costs in the ledger. */
  @Benchmark
  public Optional<String> takeAndRelease() {
    String task = "a" + sequence++;
    Optional<String> refused = mine.take(new Claim(task, 0, 1000, 64_000, List.of(DEVICE)), Instant.now());
    mine.release(task, Instant.now());
    return refused;
  }

  /**
   * A scheduling pass of a run of short tasks two at a time: the older task ended and is released,
   * and the next one claimed, in the one transaction the engine's pass takes.
   */
  @Benchmark
  public Optional<String> releaseAndClaimPass() {
    List<String> ended = running.size() < 2 ? List.of() : List.of(running.removeFirst());
    String next = "p" + sequence++;
    running.addLast(next);
    return mine.releaseAndTakeAll(ended, List.of(new Claim(next, 0, 1000, 64_000, List.of(DEVICE))), Instant.now())
        .get(0);
  }

  /** A probe tick's look: publish progress, reclaim the dead, read the others. */
  @Benchmark
  public int look() {
    return mine.look(new Progress("running", 1, 2, 3, 6), List.of(), Instant.now()).size();
  }
}

package dev.berth.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * Runs seeds of the whole-system {@link Simulation}. Without settings it runs {@link #CI_SEEDS}
 * seeds with the fault kinds in {@link #CI_FAULTS}; {@code -Dsim.seed=N} runs one seed and prints its
 * steps, {@code -Dsim.seed=N,M,...} those seeds, {@code -Dsim.seeds=COUNT -Dsim.first=N} a range, and {@code -Dsim.faults=all} (or a list,
 * e.g. {@code kill9,resume}) other fault kinds. A failing seed prints the command that runs it alone.
 */
class SimulationTest {

  /** Seeds the build runs. */
  static final int CI_SEEDS = 500;

  /** The fault kinds the build's seeds inject: every kind. */
  static final Set<Fault> CI_FAULTS = Fault.ALL;

  /**
   * A seed that once broke an invariant through a defect of Berth's, with the fault kinds it broke it
   * under: it runs in every build, whatever the settings, so the defect stays fixed.
   *
   * @param seed the seed
   * @param faults the fault kinds, as {@link Fault#parse} reads them
   * @param defect what it found
   */
  record Pinned(long seed, String faults, String defect) {}

  /** The seeds of the defects docs/reliability.md's "Bugs found" lists since every kind was switched on. */
  static final List<Pinned> PINNED = List.of(
      new Pinned(9, "second-run,kill9,sigterm,resume,children,train-gpu-oom,ledger-busy,journal-write-fails,disk-full",
          "an adopted task that ignores SIGTERM is killed for its timeout, and its SIGKILL waited on the wall clock,"
              + " not the engine's timers"),
      new Pinned(3727, "second-run,kill9,sigterm,resume,children,train-gpu-oom,ledger-busy,journal-write-fails,disk-full",
          "an adopted task whose exit followed the kill an earlier Berth marked on its way out stayed INTERRUPTED"
              + " in the resumed run, which then waited for ever"),
      new Pinned(526, "second-run,kill9,sigterm,resume,children,train-gpu-oom,ledger-busy,journal-write-fails,disk-full",
          "a resume dropped its killed predecessor's holds when it joined and claimed them anew for the tasks it"
              + " adopted; another run took them in between, and the adopted tasks ran holding nothing"),
      new Pinned(1091, "second-run,kill9,sigterm,resume,children,train-gpu-oom,ledger-busy,journal-write-fails,disk-full",
          "a killed run kept every hold while one child a task left behind lived, and another run waited on"
              + " memory of tasks long ended"),
      new Pinned(2, "all", "a claim in a ledger made anew after its files were deleted booked what runs that had not"
          + " published there yet held"),
      new Pinned(30, "all", "a killed run whose tasks live had no Berth left to publish its holds in a ledger made anew"),
      new Pinned(45, "all", "the ledger's files were deleted while no live Berth had them open, and a new ledger booked"
          + " what a killed run's tasks held"),
      new Pinned(1418, "all", "the ledger's files deleted every few seconds kept a lone run that had carried everything"
          + " into each new file from starting anything"),
      new Pinned(1488, "all", "the ledger's files deleted every few seconds after a lone run resumed restarted each new"
          + " file's wait, and the run started nothing"),
      new Pinned(355, "all", "a resumed run's claim for an attempt it adopted waited its turn in the host-wide order,"
          + " so the attempt ran holding nothing"),
      new Pinned(21194, "all", "a resumed run whose join found no row of its killed predecessor in a ledger made anew, killed"
          + " in turn, lost the hold of a task it had adopted: the task started before its own Berth"),
      new Pinned(23640, "all", "in a ledger made anew that waited for a killed run's tasks, a task gave as its reason"
          + " the GPU memory that tasks planned before it in the same pass would have taken, had the ledger not refused"
          + " them"));

  @TestFactory
  Stream<DynamicTest> everyPinnedSeedKeepsEveryInvariant() throws IOException {
    Path base = base();
    return PINNED.stream().map(pin -> DynamicTest.dynamicTest("seed " + pin.seed() + ": " + pin.defect(), () -> {
      Path dir = base.resolve("pinned-" + pin.seed());
      try {
        Simulation.Result r = new Simulation(pin.seed(), Fault.parse(pin.faults()), dir).run();
        assertThat(r.violation()).as(() -> String.join("\n", r.lastSteps())).isEmpty();
      } finally {
        delete(dir);
      }
    })).onClose(() -> delete(base));
  }

  private static Path base() throws IOException {
    return Files.createTempDirectory(Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm")
        : Path.of(System.getProperty("java.io.tmpdir")), "berth-simulation-");
  }

  // The build's 500 seeds take well under its 5-minute default; scripts/simulate.sh may run 100,000.
  @Test
  @Timeout(value = 7, unit = TimeUnit.DAYS)
  void everySeedKeepsEveryInvariant() throws IOException {
    Set<Fault> faults = System.getProperty("sim.faults") != null
        ? Fault.parse(System.getProperty("sim.faults")) : CI_FAULTS;
    String listed = System.getProperty("sim.seed");
    List<Long> seeds = new ArrayList<>();
    if (listed != null) {
      Stream.of(listed.split(",")).map(String::trim).map(Long::parseLong).forEach(seeds::add);
    } else {
      long first = Long.getLong("sim.first", 1);
      LongStream.range(first, first + Long.getLong("sim.seeds", CI_SEEDS)).forEach(seeds::add);
    }
    String one = seeds.size() == 1 ? listed : null;
    Path base = base();
    List<String> failures = new ArrayList<>();
    long began = System.nanoTime();
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    long cpuBefore = threads.getCurrentThreadCpuTime();
    int done = 0;
    try {
      for (long seed : seeds) {
        Path dir = base.resolve("seed-" + seed);
        Simulation.Result r = new Simulation(seed, faults, dir).run();
        if (one != null) {
          r.lastSteps().forEach(System.out::println);
        }
        r.violation().ifPresent(v -> {
          String line = "seed " + r.seed() + " breaks invariant " + v + "\n  reproduce: ./mvnw -B -q -pl simulation -am "
              + "test -Dtest=SimulationTest -Dsurefire.failIfNoSpecifiedTests=false -Dsim.seed=" + r.seed()
              + " -Dsim.faults=" + Fault.names(faults);
          System.out.println(line);
          if (one == null) {
            r.lastSteps().stream().skip(Math.max(0, r.lastSteps().size() - 8)).forEach(s -> System.out.println("    " + s));
          }
          failures.add(line);
        });
        delete(dir);
        if (one == null && ++done % 1000 == 0) {
          System.out.println("simulation: " + done + " of " + seeds.size() + " seeds done (up to " + seed + "), "
              + failures.size() + " failed, " + (System.nanoTime() - began) / 1_000_000_000 + " s");
        }
      }
    } finally {
      delete(base);
    }
    System.out.println("simulation: " + seeds.size() + " seeds from " + seeds.get(0) + " with faults " + Fault.names(faults) + ": "
        + failures.size() + " failed, in " + (System.nanoTime() - began) / 1_000_000 + " ms ("
        + (threads.getCurrentThreadCpuTime() - cpuBefore) / 1_000_000 + " ms of CPU on this thread)");
    assertThat(failures).isEmpty();
  }

  private static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

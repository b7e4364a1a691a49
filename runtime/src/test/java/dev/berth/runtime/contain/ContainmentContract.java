package dev.berth.runtime.contain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.model.TaskId;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.spi.Execution;
import dev.berth.spi.ExitListener;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenarios every containment passes, run through a real {@link LocalProcessExecutor}: what a
 * task leaves behind, however it detached, ends with it, and its usage is measured.
 */
abstract class ContainmentContract {

  private static final long MIB = 1L << 20;

  @TempDir Path dir;
  private LocalProcessExecutor executor;

  /** The containment under test, or one that makes the test skip with a reason. */
  abstract TaskContainment containment();

  @BeforeEach
  void open() {
    executor = new LocalProcessExecutor(containment(), Duration.ofMillis(100));
  }

  @AfterEach
  void close() {
    if (executor != null) {
      executor.close();
    }
  }

  @Test
  void aBackgroundChildIsGoneWhenItsTaskEnds() throws Exception {
    Path pids = dir.resolve("pids");
    Run run = launch("sh", "-c", "sleep 600 & echo $! > " + pids + "; exit 0");

    assertThat(run.exit.get(20, TimeUnit.SECONDS)).isZero();

    assertThat(Files.readString(pids).strip()).satisfies(pid -> assertThat(gone(Long.parseLong(pid))).isTrue());
  }

  @Test
  void aSetsidDoubleForkIsGoneWhenItsTaskEnds() throws Exception {
    Path pids = dir.resolve("pids");
    Run run = launch("sh", "-c", "setsid sh -c 'sleep 600 & echo $! > " + pids + "' & wait; exit 3");

    assertThat(run.exit.get(20, TimeUnit.SECONDS)).isEqualTo(3);

    assertThat(Files.readString(pids).strip()).satisfies(pid -> assertThat(gone(Long.parseLong(pid))).isTrue());
  }

  @Test
  void terminatingATaskEndsWhatEscapedItsTree() throws Exception {
    Path pids = dir.resolve("pids");
    Path ready = dir.resolve("ready");
    Run run = launch("sh", "-c", "setsid sh -c 'sleep 600 & echo $! > " + pids + "; touch " + ready + "' & sleep 600");
    awaitFile(ready, run);
    long escaped = Long.parseLong(Files.readString(pids).strip());
    assertThat(ProcessHandle.of(escaped).map(p -> p.parent().map(ProcessHandle::pid).orElse(-1L)))
        .as("no longer a descendant of the task").isNotEqualTo(java.util.Optional.of(run.execution.pid()));

    run.execution.terminate(0);

    assertThat(run.exit.get(20, TimeUnit.SECONDS)).isEqualTo(137);
    assertThat(gone(escaped)).isTrue();
  }

  @Test
  void aTaskHoldingThreeHundredMibReportsAPeakWithinTenPercentOfIt() throws Exception {
    assumeThat(Files.isExecutable(Path.of("/usr/bin/python3"))).as("python3 is installed").isTrue();
    Run run = launch("/usr/bin/python3", "-c", """
        import time
        b = bytearray(300 * 2**20)
        for i in range(0, len(b), 4096):
            b[i] = 1
        touched = time.process_time()
        while time.process_time() - touched < 0.8:
            pass
        """);

    assertThat(run.exit.get(30, TimeUnit.SECONDS)).isZero();

    MeasuredUsage usage = run.execution.usage();
    assertThat(usage.peakHostMemoryBytes()).isPresent();
    assertThat(usage.peakHostMemoryBytes().getAsLong()).isBetween(300 * MIB, 330 * MIB);
    assertThat(usage.cpuSeconds()).isPresent();
    assertThat(usage.cpuSeconds().getAsDouble()).as("0.8 s of busy loop, sampled or exact")
        .isGreaterThan(usage.exact() ? 0.7 : 0.3);
  }

  @Test
  void aContainmentNamesItsMode() {
    assertThat(containment().mode()).isNotBlank();
    assertThat(containment().describe()).startsWith(containment().mode());
  }

  private record Run(Execution execution, CompletableFuture<Integer> exit) {}

  private Run launch(String... argv) throws Exception {
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    ExitListener listener = exit::complete;
    LaunchRequest request = new LaunchRequest(TaskId.of("t"), 1, List.of(argv), new TreeMap<>(), dir.resolve("work"),
        dir.resolve("out.log"), dir.resolve("err.log"));
    return new Run(executor.launch(request, listener), exit);
  }

  /** Waits for the task to create {@code file}, failing if it exits first. */
  private static void awaitFile(Path file, Run run) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!Files.exists(file)) {
      assertThat(run.exit).as("the task is still running").isNotDone();
      assertThat(System.nanoTime() - deadline).as("the task got ready in time").isNegative();
      Thread.onSpinWait();
    }
  }

  /** Whether the process is gone (or goes within a minute, as a killed process may on a loaded machine). */
  private static boolean gone(long pid) throws Exception {
    var handle = ProcessHandle.of(pid);
    if (handle.isEmpty()) {
      return true;
    }
    try {
      handle.get().onExit().get(60, TimeUnit.SECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    }
  }
}

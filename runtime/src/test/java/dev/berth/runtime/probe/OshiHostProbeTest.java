package dev.berth.runtime.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import java.time.Instant;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OshiHostProbeTest {

  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final TaskId TASK = TaskId.of("t");

  private final OshiHostProbe probe = new OshiHostProbe();

  @Test
  void readingsAreSaneAndTheFirstUtilizationIsUnknown() throws Exception {
    HostSnapshot first = probe.read(NOW, new TreeMap<>());
    // As in the runtime, the next reading comes from a timer, so CPU ticks have passed in between.
    HostSnapshot later = CompletableFuture
        .supplyAsync(() -> probe.read(NOW.plusSeconds(1), new TreeMap<>()), CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS))
        .get(20, TimeUnit.SECONDS);

    assertThat(first.takenAt()).isEqualTo(NOW);
    assertThat(first.logicalCpus()).isGreaterThanOrEqualTo(1);
    assertThat(first.totalMemoryBytes()).isPositive();
    assertThat(first.availableMemoryBytes()).isPositive().isLessThanOrEqualTo(first.totalMemoryBytes());
    assertThat(first.cpuUtilizationKnown()).isFalse();
    assertThat(later.cpuUtilization()).isBetween(0.0, 1.0);
  }

  @Test
  void probesShareTheMachineButEachStartsItsOwnUtilization() throws Exception {
    probe.read(NOW, new TreeMap<>());
    CompletableFuture<OshiHostProbe> madeElsewhere = CompletableFuture.supplyAsync(OshiHostProbe::new);
    OshiHostProbe.prepare();
    OshiHostProbe another = madeElsewhere.get(60, TimeUnit.SECONDS);

    HostSnapshot first = another.read(NOW, new TreeMap<>());

    assertThat(first.cpuUtilizationKnown()).isFalse();
    assertThat(first.logicalCpus()).isEqualTo(probe.read(NOW, new TreeMap<>()).logicalCpus());
    assertThat(first.totalMemoryBytes()).isEqualTo(probe.read(NOW, new TreeMap<>()).totalMemoryBytes());
  }

  @Test
  void measuresTheMemoryOfARealProcess() throws Exception {
    // The process says it runs before it is measured, and is then measured as it stays: a child read
    // between fork and exec, or in the middle of an exec, has no memory yet. So the shell that said so
    // waits itself (on its input, which the test never writes) rather than exec another program.
    Process sleeper = new ProcessBuilder("sh", "-c", "echo up; read never").start();
    try {
      assertThat(new java.io.BufferedReader(new java.io.InputStreamReader(sleeper.getInputStream(),
          java.nio.charset.StandardCharsets.UTF_8)).readLine()).isEqualTo("up");
      HostSnapshot snapshot = probe.read(NOW, pids(sleeper.pid()));

      assertThat(snapshot.taskMemoryBytes().get(TASK)).isPositive();
    } finally {
      sleeper.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void aProcessThatIsGoneIsLeftOut() throws Exception {
    Process done = new ProcessBuilder("true").start();
    assertThat(done.waitFor(20, TimeUnit.SECONDS)).isTrue();

    assertThat(probe.read(NOW, pids(done.pid())).taskMemoryBytes()).isEmpty();
  }

  private static SortedMap<TaskId, Long> pids(long pid) {
    SortedMap<TaskId, Long> pids = new TreeMap<>();
    pids.put(TASK, pid);
    return pids;
  }
}

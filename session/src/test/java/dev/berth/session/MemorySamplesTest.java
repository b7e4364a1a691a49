package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeGpuProbe;
import dev.berth.testkit.FakeHostProbe;
import dev.berth.testkit.TaskSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemorySamplesTest {

  private static final long MIB = 1024 * 1024;

  @TempDir Path dir;

  @Test
  void aRunRecordsWhatItReservedAndWhatItsTasksUsedAtItsProbeTicks() throws Exception {
    Path workdir = dir.resolve("run");
    RunSpec spec = TaskSpecs.run("mem").workdir(workdir.toString())
        .group("g", TaskSpecs.task("a").memoryMiB(16).build(), TaskSpecs.task("b").memoryMiB(32).build())
        .build();
    FakeClock clock = new FakeClock();
    FakeExecutor executor = new FakeExecutor();
    FakeHostProbe host = new FakeHostProbe().cpus(16).taskMemory(TaskId.of("a"), 5 * MIB);
    Seen seen = new Seen();
    List<String> said = new ArrayList<>();
    try (LocalSession session = LocalSession.open(SessionOptions.builder(workdir).spec(spec).clock(clock)
        .hostProbe(host).gpuProbe(new FakeGpuProbe()).executor(executor).listener(seen).say(said::add)
        .warn(said::add).build())) {
      session.start(failure -> said.add("failed: " + failure));
      seen.awaitLaunches("b", 1);
      clock.advance(spec.config().interval()); // the probe tick, scheduled as the run started, falls due
      executor.exit(TaskId.of("a"), 0); // handled after the tick, in the order given
      executor.exit(TaskId.of("b"), 0);
      assertThat(seen.awaitFinished().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    List<String> lines = Files.readAllLines(MemorySamples.of(workdir));
    assertThat(lines).hasSize(3);
    ObjectMapper json = new ObjectMapper();
    JsonNode before = json.readTree(lines.get(0)).get("devices").get("host");
    JsonNode running = json.readTree(lines.get(1));
    assertThat(before.get("reservedBytes").asLong()).as("nothing ran at the first reading").isZero();
    assertThat(running.get("at").asLong()).isEqualTo(clock.instant().toEpochMilli());
    assertThat(running.get("devices").get("host").get("reservedBytes").asLong()).isEqualTo(48 * MIB);
    assertThat(running.get("devices").get("host").get("usedBytes").asLong()).isEqualTo(5 * MIB);
    JsonNode end = json.readTree(lines.get(2)).get("devices").get("host");
    assertThat(end.get("reservedBytes").asLong()).as("the run ended: nothing is held").isZero();
    assertThat(said).isEmpty();
  }
}

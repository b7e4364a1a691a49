package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.GpuRequest;
import dev.berth.core.model.TaskId;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SlurmResourcesTest {

  private static final long GIB = 1L << 30;
  private static final Path DIR = Path.of("/shared/runs/sweep/t");
  private static final LaunchRequest BARE = new LaunchRequest(TaskId.of("t"), 1, List.of("true"), new TreeMap<>(), DIR,
      DIR.resolve("stdout.log"), DIR.resolve("stderr.log"));
  private static final SlurmResources TASK =
      new SlurmResources(GIB, 1000, GpuRequest.share(4 * GIB), Optional.of(Duration.ofMinutes(90)));

  @Test
  void theReservationDecidesMemoryCoresAndGpuMemoryAndTheTaskTheTimeLimit() {
    LaunchRequest grown = BARE.withReservation(new Placement("cuda:1", 3 * GIB, 2500, 6 * GIB), 0);

    assertThat(SlurmResources.forAttempt(grown, TASK))
        .isEqualTo(new SlurmResources(3 * GIB, 2500, GpuRequest.share(6 * GIB), Optional.of(Duration.ofMinutes(90))));
  }

  @Test
  void wholeGpusAreAskedAsWholeGpus() {
    LaunchRequest two = BARE.withReservation(new Placement("cuda:0,cuda:1", GIB, 1000, 0), 2);

    assertThat(SlurmResources.forAttempt(two, TASK).gpu()).isEqualTo(GpuRequest.whole(2));
  }

  @Test
  void aCpuReservationAsksForNoGpu() {
    LaunchRequest cpu = BARE.withReservation(Placement.cpu(GIB, 500), 0);

    assertThat(SlurmResources.forAttempt(cpu, TASK).gpu()).isEqualTo(GpuRequest.NONE);
  }

  @Test
  void aRequestWithNothingReservedAsksForTheTasksOwnResources() {
    assertThat(SlurmResources.forAttempt(BARE, TASK)).isEqualTo(TASK);
  }
}

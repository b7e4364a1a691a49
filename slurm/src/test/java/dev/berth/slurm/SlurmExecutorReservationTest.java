package dev.berth.slurm;

import static dev.berth.slurm.Requests.FAST;
import static dev.berth.slurm.Requests.GIB;
import static dev.berth.slurm.Requests.options;
import static dev.berth.slurm.Requests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each attempt asks Slurm for what the scheduler reserved for it. */
class SlurmExecutorReservationTest {

  @TempDir Path dir;

  private final FakeSlurm slurm = new FakeSlurm();
  private final FakeClock clock = new FakeClock();
  private SlurmExecutor executor = Requests.executor(FAST, slurm, clock);

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void anOomRetryAsksForMoreMemory() throws Exception {
    executor.launch(request(dir, "t", 1).withReservation(Placement.cpu(GIB, 1000), 0), new Exits());
    executor.launch(request(dir, "t", 2).withReservation(Placement.cpu(GIB + GIB / 2, 1000), 0), new Exits());

    assertThat(slurm.calls("sbatch")).extracting(argv -> options(argv, "--mem="))
        .containsExactly(List.of("--mem=1024M"), List.of("--mem=1536M"));
  }

  @Test
  void reservedCoresAreRoundedUpAndNoReservedMemoryLeavesTheClusterDefault() throws Exception {
    executor.launch(request(dir, "t", 1).withReservation(Placement.cpu(0, 2500), 0), new Exits());

    assertThat(slurm.calls("sbatch").get(0)).contains("--cpus-per-task=3").noneMatch(a -> a.startsWith("--mem"));
  }

  @Test
  void wholeGpusAreAskedAsGpuGres() throws Exception {
    executor.launch(request(dir, "t", 1).withReservation(new Placement("cuda:0,cuda:1", GIB, 1000, 0), 2), new Exits());

    assertThat(options(slurm.calls("sbatch").get(0), "--gres=")).containsExactly("--gres=gpu:2");
  }

  @Test
  void aCudaOomRetryWithMoreGpuMemoryAsksForMoreShards() throws Exception {
    executor.close();
    executor = Requests.executor(Requests.SLURM.toBuilder()
        .set(SlurmKeys.GPU_MEMORY_GRES, "shard:10GiB").build(), FAST, slurm, clock);

    executor.launch(request(dir, "t", 1).withReservation(new Placement("cuda:0", GIB, 1000, 8 * GIB), 0), new Exits());
    executor.launch(request(dir, "t", 2).withReservation(new Placement("cuda:0", GIB, 1000, 12 * GIB), 0), new Exits());

    assertThat(slurm.calls("sbatch")).extracting(argv -> options(argv, "--gres="))
        .containsExactly(List.of("--gres=shard:1"), List.of("--gres=shard:2"));
  }

  @Test
  void theTimeLimitStillComesFromTheTask() throws Exception {
    TaskSpec task = TaskSpec.builder("t", "g").command("true").memoryBytes(GIB).timeout(Duration.ofMinutes(90)).build();
    RunSpec run = new RunSpec("sweep", dir.toString(), SchedulerConfig.DEFAULTS, List.of(new GroupSpec("g", List.of(task))));
    executor.close();
    executor = new SlurmExecutor(run.name(), Requests.SLURM, FAST, slurm, SlurmExecutor.resourcesOf(run), clock, clock);
    LaunchRequest grown = request(dir, "t", 2).withReservation(Placement.cpu(2 * GIB, 1000), 0);

    executor.launch(grown, new Exits());

    assertThat(slurm.calls("sbatch").get(0)).contains("--mem=2048M", "--time=90");
  }
}

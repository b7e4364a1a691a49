package dev.berth.slurm;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.TaskId;
import dev.berth.os.CommandRunner;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;

/** Launch requests in a test's folder, and the fast settings and fake-clock executors the scripted-Slurm tests use. */
final class Requests {

  static final long GIB = 1L << 30;
  static final long WAIT = 30;
  /** The run's settings: polling at most every 20 ms. */
  static final SlurmConfig SLURM = SlurmConfig.builder().set(SlurmKeys.POLL_MAX, Duration.ofMillis(20)).build();
  /** Quick polling, and one submission at a time so that the order of sbatch calls is known. */
  static final SlurmTuning FAST = SlurmTuning.DEFAULTS.withPollInitial(Duration.ofMillis(1))
      .withCommandTimeout(Duration.ofSeconds(5)).withLostAfter(Duration.ofMillis(50)).withParallelSubmissions(1);

  /**
   * On the fake clock: long enough for many rounds at {@link #SLURM}'s slowest polling, and past
   * {@link #FAST}'s lost-after.
   */
  static final Duration ROUNDS = Duration.ofSeconds(1);

  private Requests() {}

  /** {@link #executor(SlurmConfig, SlurmTuning, CommandRunner, FakeClock)} with {@link #SLURM}. */
  static SlurmExecutor executor(SlurmTuning tuning, CommandRunner slurm, FakeClock clock) {
    return executor(SLURM, tuning, slurm, clock);
  }

  /** An executor of the run {@code run} on {@code slurm}, whose tracker the test drives with {@code clock}. */
  static SlurmExecutor executor(SlurmConfig config, SlurmTuning tuning, CommandRunner slurm, FakeClock clock) {
    return new SlurmExecutor("run", config, tuning, slurm, id -> SlurmResources.DEFAULT, clock, clock);
  }

  /** Attempt {@code attempt} of {@code task} running {@code true}, with nothing reserved. */
  static LaunchRequest request(Path dir, String task, int attempt) {
    Path workdir = dir.resolve(task);
    return new LaunchRequest(TaskId.of(task), attempt, List.of("true"), new TreeMap<>(), workdir,
        workdir.resolve("stdout.log"), workdir.resolve("stderr.log"));
  }

  /** Attempt 1 of {@code task} with {@code memoryBytes} and one core reserved. */
  static LaunchRequest reserved(Path dir, String task, long memoryBytes) {
    return request(dir, task, 1).withReservation(Placement.cpu(memoryBytes, 1000), 0);
  }

  /** Attempt 1 of matrix task {@code task} with 1 GiB and one core reserved, in the array {@code sweep}. */
  static LaunchRequest keyed(Path dir, String task) {
    return reserved(dir, task, GIB).withArrayKey("sweep");
  }

  /** The sbatch call's options that start with {@code prefix}. */
  static List<String> options(List<String> argv, String prefix) {
    return argv.stream().filter(a -> a.startsWith(prefix)).toList();
  }
}

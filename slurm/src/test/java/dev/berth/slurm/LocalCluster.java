package dev.berth.slurm;

import dev.berth.testkit.TestSlurm;
import java.time.Duration;

/**
 * The Slurm cluster the integration tests run against: only the one the test setup started and named
 * ({@link TestSlurm}). Without it, the tests are skipped with a message saying so.
 */
final class LocalCluster {

  /** Faster than the defaults so the tests do not wait on the backoff; the behaviour is the same. */
  static final SlurmConfig SLURM = SlurmConfig.builder().set(SlurmKeys.POLL_MAX, Duration.ofSeconds(1)).build();
  /** With {@link #SLURM}: faster than the defaults so the tests do not wait on the backoff. */
  static final SlurmTuning TUNING = SlurmTuning.DEFAULTS.withPollInitial(Duration.ofMillis(100))
      .withCommandTimeout(Duration.ofSeconds(30));

  private LocalCluster() {}

  /** Skips the calling test (or class, from a {@code @BeforeAll}) unless the test setup's cluster is up. */
  static void assumeUp() {
    TestSlurm.assumeUp();
  }

  /**
   * Cancels the jobs the tests left in the test setup's cluster ({@link TestSlurm#clearJobs}) and waits until
   * they are gone.
   */
  static void clearJobs() {
    TestSlurm.clearJobs();
  }
}

package dev.berth.slurm;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.os.CommandRunner;
import dev.berth.os.ProcessCommandRunner;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * The Slurm cluster the integration tests run against: whatever {@code sinfo} finds. Without one, the
 * tests are skipped with a message saying so.
 */
final class LocalCluster {

  /** Faster than the defaults so the tests do not wait on the backoff; the behaviour is the same. */
  static final SlurmConfig SLURM = SlurmConfig.builder().set(SlurmKeys.POLL_MAX, Duration.ofSeconds(1)).build();
  /** With {@link #SLURM}: faster than the defaults so the tests do not wait on the backoff. */
  static final SlurmTuning TUNING = SlurmTuning.DEFAULTS.withPollInitial(Duration.ofMillis(100))
      .withCommandTimeout(Duration.ofSeconds(30));

  private static String unavailable;

  private LocalCluster() {}

  /** Skips the calling test (or class, from a {@code @BeforeAll}) unless a cluster answers with a usable node. */
  static synchronized void assumeUp() {
    if (unavailable == null) {
      unavailable = check();
    }
    assumeTrue(unavailable.isEmpty(), unavailable);
  }

  private static String check() {
    CommandRunner.Result result;
    try {
      result = new ProcessCommandRunner().run(List.of("sinfo", "--noheader", "--format=%t"), Duration.ofSeconds(15));
    } catch (IOException e) {
      return "sinfo is not on the PATH, so there is no Slurm here: the Slurm cluster tests are skipped";
    }
    if (!result.succeeded()) {
      return "the Slurm cluster is not up (sinfo: " + (result.timedOut() ? "no answer" : result.stderr().strip())
          + "): the Slurm cluster tests are skipped";
    }
    boolean usable = result.stdout().lines().map(String::strip)
        .anyMatch(s -> s.startsWith("idle") || s.startsWith("mix") || s.startsWith("alloc"));
    return usable ? "" : "no Slurm node is idle, mixed or allocated (sinfo says '" + result.stdout().strip()
        + "'): the Slurm cluster tests are skipped";
  }
}

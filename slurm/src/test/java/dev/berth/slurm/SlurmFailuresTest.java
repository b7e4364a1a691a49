package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.os.CommandRunner.Result;
import org.junit.jupiter.api.Test;

/** Which recorded Slurm failures pass and which do not. */
class SlurmFailuresTest {

  @Test
  void anUnreachableControllerIsTransientForEveryCommand() {
    assertThat(SlurmFailures.transientSubmission(failed(1, "sbatch-error-controller.txt"))).isTrue();
    assertThat(SlurmFailures.transientQuery(failed(1, "squeue-error-controller.txt"))).isTrue();
    assertThat(SlurmFailures.transientQuery(failed(8, "scancel-error-controller.txt"))).isTrue();
  }

  @Test
  void aBusyOrRateLimitingControllerIsTransient() {
    assertThat(SlurmFailures.transientSubmission(new Result(1, "",
        "sbatch: error: Batch job submission failed: Resource temporarily unavailable\n", false))).isTrue();
    assertThat(SlurmFailures.transientQuery(new Result(1, "",
        "squeue: error: Too many requests, rpc rate limit exceeded\n", false))).isTrue();
  }

  @Test
  void aBadPartitionMemoryOrGresRequestIsPermanent() {
    for (String recording : new String[] {"sbatch-error-partition.txt", "sbatch-error-memory.txt",
        "sbatch-error-gres.txt"}) {
      assertThat(SlurmFailures.transientSubmission(failed(1, recording))).as(recording).isFalse();
    }
    assertThat(SlurmFailures.transientQuery(new Result(1, "", "squeue: unrecognized option '--bogus'\n", false)))
        .isFalse();
  }

  @Test
  void aTimeoutIsTransientForAQueryButNotForASubmissionThatMayHaveBeenTaken() {
    Result timedOut = new Result(-1, "", "", true);
    Result socket = new Result(1, "", "sbatch: error: Batch job submission failed: Socket timed out on send/recv"
        + " operation\n", false);

    assertThat(SlurmFailures.transientQuery(timedOut)).isTrue();
    assertThat(SlurmFailures.transientQuery(socket)).isTrue();
    assertThat(SlurmFailures.transientSubmission(timedOut)).isFalse();
    assertThat(SlurmFailures.transientSubmission(socket)).isFalse();
  }

  @Test
  void aSuccessIsNeverAFailure() {
    assertThat(SlurmFailures.transientQuery(Result.exited(0, "Unable to contact slurm controller"))).isFalse();
  }

  private static Result failed(int exitCode, String recording) {
    return new Result(exitCode, "", Recordings.read(recording), false);
  }
}

package dev.berth.slurm;

import static dev.berth.slurm.Recordings.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.os.CommandRunner.Result;
import org.junit.jupiter.api.Test;

class SbatchOutputTest {

  @Test
  void aPlainAnswerIsTheJobId() {
    SbatchOutput out = SbatchOutput.parse(Result.exited(0, read("sbatch-parsable.txt")));

    assertThat(out.accepted()).isTrue();
    assertThat(out.jobId()).contains(SlurmJobId.of("27"));
    assertThat(out.cluster()).isEmpty();
    assertThat(out.error()).isEmpty();
  }

  @Test
  void anAnswerWithAClusterKeepsBoth() {
    SbatchOutput out = SbatchOutput.parse(Result.exited(0, read("sbatch-parsable-cluster.txt")));

    assertThat(out.jobId()).contains(SlurmJobId.of("28"));
    assertThat(out.cluster()).contains("localcluster");
  }

  @Test
  void anArraySubmissionAnswersTheArrayJobsId() {
    assertThat(SbatchOutput.parse(Result.exited(0, read("sbatch-parsable-array.txt"))).jobId())
        .contains(SlurmJobId.of("29"));
  }

  @Test
  void aRefusedJobCarriesEveryReasonSbatchGave() {
    SbatchOutput out = SbatchOutput.parse(new Result(1, "", read("sbatch-error-memory.txt"), false));

    assertThat(out.accepted()).isFalse();
    assertThat(out.error()).contains("Memory specification can not be satisfied; Batch job submission failed:"
        + " Requested node configuration is not available");
  }

  @Test
  void tooManyGpusIsRefusedAsAnUnavailableNodeConfiguration() {
    assertThat(SbatchOutput.parse(new Result(1, "", read("sbatch-error-gres.txt"), false)).error())
        .contains("Batch job submission failed: Requested node configuration is not available");
  }

  @Test
  void anUnknownPartitionIsNamed() {
    assertThat(SbatchOutput.parse(new Result(1, "", read("sbatch-error-partition.txt"), false)).error())
        .contains("invalid partition specified: nope; Batch job submission failed: Invalid partition name specified");
  }

  @Test
  void aFailureWithoutSbatchsPrefixGivesTheExitCodeAndFirstLine() {
    assertThat(SbatchOutput.parse(new Result(127, "", "sh: sbatch: not found\n", false)).error())
        .contains("sbatch exited with 127: sh: sbatch: not found");
  }

  @Test
  void aTimeOutSaysTheJobMayExist() {
    assertThat(SbatchOutput.parse(new Result(-1, "", "", true)).error().orElseThrow())
        .contains("may or may not have been submitted");
  }

  @Test
  void somethingOtherThanAnIdIsAnError() {
    assertThat(SbatchOutput.parse(Result.exited(0, "Submitted batch job 27\n")).error())
        .contains("sbatch printed 'Submitted batch job 27' instead of a job id");
    assertThat(SbatchOutput.parse(Result.exited(0, "\n")).error())
        .contains("sbatch exited with 0 but printed no job id");
  }
}

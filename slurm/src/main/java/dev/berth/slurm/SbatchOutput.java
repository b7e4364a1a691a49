package dev.berth.slurm;

import dev.berth.os.CommandRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code sbatch --parsable} answered: the new job's id (stdout {@code "27"}, or
 * {@code "28;cluster"} on a multi-cluster setup), or why the submission failed (stderr lines such as
 * {@code "sbatch: error: Batch job submission failed: Requested node configuration is not available"}).
 * Pure.
 *
 * @param jobId the id of the submitted job (of the array job, for an array), when it was accepted
 * @param cluster the cluster named after the semicolon, if any
 * @param error why it was refused, for people, when it was not accepted
 */
public record SbatchOutput(Optional<SlurmJobId> jobId, Optional<String> cluster, Optional<String> error) {

  private static final String PREFIX = "sbatch: error: ";

  /** Reads the result of one sbatch run. */
  public static SbatchOutput parse(CommandRunner.Result result) {
    if (result.timedOut()) {
      return failure("sbatch did not answer in time; the job may or may not have been submitted");
    }
    if (result.exitCode() != 0) {
      return failure(errorText(result));
    }
    for (String line : result.stdout().split("\n")) {
      String s = line.strip();
      if (s.isEmpty()) {
        continue;
      }
      int semicolon = s.indexOf(';');
      String id = semicolon < 0 ? s : s.substring(0, semicolon);
      Optional<String> cluster = semicolon < 0 ? Optional.empty() : Optional.of(s.substring(semicolon + 1));
      try {
        return new SbatchOutput(Optional.of(SlurmJobId.of(id)), cluster, Optional.empty());
      } catch (IllegalArgumentException e) {
        return failure("sbatch printed '" + s + "' instead of a job id");
      }
    }
    return failure("sbatch exited with 0 but printed no job id");
  }

  /** Whether the job was accepted. */
  public boolean accepted() {
    return jobId.isPresent();
  }

  private static SbatchOutput failure(String error) {
    return new SbatchOutput(Optional.empty(), Optional.empty(), Optional.of(error));
  }

  /** The error lines without sbatch's prefix, joined; the exit code when there are none. */
  private static String errorText(CommandRunner.Result result) {
    List<String> reasons = new ArrayList<>();
    for (String line : (result.stderr() + "\n" + result.stdout()).split("\n")) {
      String s = line.strip();
      if (s.startsWith(PREFIX)) {
        reasons.add(s.substring(PREFIX.length()));
      } else if (s.startsWith("sbatch: ") && s.contains("error")) {
        reasons.add(s.substring("sbatch: ".length()));
      }
    }
    if (reasons.isEmpty()) {
      String first = result.stderr().strip().lines().findFirst().orElse("");
      return "sbatch exited with " + result.exitCode() + (first.isEmpty() ? "" : ": " + first);
    }
    return String.join("; ", reasons);
  }
}

package dev.berth.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.os.CommandRunner;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code squeue}: the fixed {@link #FORMAT} the tracker asks for, and {@code squeue --json}.
 * Pure.
 *
 * <p>The tracker uses the fixed format because {@code squeue --json} in Slurm 22.05 ignores
 * {@code --jobs} and returns every job of the cluster. Both forms give the batch script's exit as a raw
 * wait status (768 is exit 3, 9 is signal 9).
 */
public final class SqueueOutput {

  /** Array id (23_1), raw id, state, reason, raw exit status and name, separated by {@code |}. */
  public static final String FORMAT = "JobArrayID:|,JobID:|,State:|,Reason:|,exit_code:|,Name:";

  private SqueueOutput() {}

  /**
   * One job or array element.
   *
   * @param id the job's id; array elements in the {@code 23_1} form
   * @param rawId Slurm's own id of the job or element (an element that has not started shows the array job's)
   * @param state the state
   * @param reason why it waits or how it ended, e.g. {@code Dependency}, {@code TimeLimit}, {@code None}
   * @param exit how the batch script ended, {@link SlurmExit#NONE} while it runs
   * @param name the job name
   */
  public record Row(SlurmJobId id, String rawId, SlurmState state, String reason, SlurmExit exit, String name) {

    /**
     * Whether Slurm cancelled the job because a dependency can never be met: squeue shows
     * {@code CANCELLED} with reason {@code DependencyNeverSatisfied}, while a job scancel'ed as it waited
     * for its dependency shows reason {@code Dependency}.
     */
    public boolean dependencyNeverSatisfied() {
      return state == SlurmState.CANCELLED && reason.equals("DependencyNeverSatisfied");
    }
  }

  /**
   * The command that lists {@code queryIds} (job ids, or array job ids for all their elements) in
   * every state, one array element per line, in {@link #FORMAT}.
   */
  public static List<String> command(Collection<String> queryIds) {
    return List.of("squeue", "--noheader", "--states=all", "--array", "--jobs=" + String.join(",", queryIds),
        "--Format=" + FORMAT);
  }

  /**
   * Whether squeue failed only because it knows none of the ids asked about: it then exits 1 with
   * {@code "slurm_load_jobs error: Invalid job id specified"}, while a list with at least one known id
   * succeeds and leaves the others out.
   */
  public static boolean knowsNone(CommandRunner.Result result) {
    return !result.timedOut() && result.exitCode() != 0 && result.stderr().contains("Invalid job id specified");
  }

  /**
   * Parses the output of {@link #command}. Lines that are not one job or element (the collapsed
   * {@code 23_[2-3%2]} form of pending elements, shown without {@code --array}) are skipped.
   *
   * @throws IllegalArgumentException when a line does not have the format's six fields
   */
  public static List<Row> parse(String stdout) {
    List<Row> rows = new ArrayList<>();
    for (String line : stdout.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split("\\|", 6);
      if (f.length != 6) {
        throw new IllegalArgumentException("squeue line '" + line + "' does not have the 6 fields of " + FORMAT);
      }
      Optional<SlurmJobId> id = jobId(f[0].strip());
      if (id.isEmpty()) {
        continue;
      }
      rows.add(new Row(id.get(), f[1].strip(), SlurmState.parse(f[2]), f[3].strip(), waitStatus(f[4]), f[5].strip()));
    }
    return rows;
  }

  /**
   * Parses {@code squeue --json} (Slurm 22.05, OpenAPI v0.0.38): every job in the answer, array
   * elements as {@code 23_1}; collapsed pending elements are skipped.
   *
   * @throws IllegalArgumentException when the text is not such a document
   */
  public static List<Row> parseJson(String json) {
    List<Row> rows = new ArrayList<>();
    for (JsonNode job : JobsJson.read(json, "squeue")) {
      String jobId = job.path("job_id").asText();
      JsonNode task = job.path("array_task_id");
      String id;
      if (task.isIntegralNumber()) {
        id = job.path("array_job_id").asText() + "_" + task.asText();
      } else if (!job.path("array_task_string").asText("").isEmpty()) {
        continue;
      } else {
        id = jobId;
      }
      rows.add(new Row(SlurmJobId.of(id), jobId, SlurmState.parse(job.path("job_state").asText()),
          job.path("state_reason").asText(""), SlurmExit.fromWaitStatus(job.path("exit_code").asLong(0)),
          job.path("name").asText("")));
    }
    return rows;
  }

  private static Optional<SlurmJobId> jobId(String text) {
    try {
      return Optional.of(SlurmJobId.of(text));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static SlurmExit waitStatus(String text) {
    String s = text.strip();
    if (s.isEmpty() || s.equals("N/A")) {
      return SlurmExit.NONE;
    }
    try {
      return SlurmExit.fromWaitStatus(Long.parseLong(s));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("squeue exit_code '" + text + "' is not a number", e);
    }
  }
}

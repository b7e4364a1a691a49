package dev.berth.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code sacct}: the fixed {@link #FORMAT} the tracker asks for, and {@code sacct --json}.
 * Pure.
 *
 * <p>The tracker uses the fixed format because {@code sacct --json} in Slurm 22.05 reports a job
 * that exited 3 as {@code "exit_code": {"status": "SUCCESS", "return_code": 0}}; the plain
 * {@code ExitCode} column says {@code 3:0}. Signals are right in both. sacct also lags squeue: a job
 * squeue already shows may be missing from sacct for a few seconds, so it is only the last source.
 */
public final class SacctOutput {

  /** The columns the tracker asks for, in this order. */
  public static final String FORMAT =
      "JobIDRaw,JobID,State,ExitCode,Elapsed,MaxRSS,ReqMem,Reason,TotalCPU,Submit,Start,End,NodeList";

  private static final Pattern ELAPSED =
      Pattern.compile("(?:([0-9]+)-)?(?:([0-9]+):)?([0-9]+):([0-9]+)(\\.[0-9]+)?");
  private static final Pattern MEMORY = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)([KMGTPkmgtp]?)[nc]?");

  private SacctOutput() {}

  /**
   * One job, array element or step.
   *
   * @param rawId Slurm's own id ({@code 25}), with a step suffix for a step ({@code 17.batch})
   * @param id the id as {@code 23_1} for an array element, {@code 17.batch} for a step
   * @param state the state
   * @param stateText the state as printed, e.g. {@code "CANCELLED by 0"} (the uid that cancelled)
   * @param exit how the batch script ended
   * @param elapsed run time, when known
   * @param maxRssBytes the largest resident memory measured, when known (steps only)
   * @param requestedMemoryBytes the memory the job asked for, when known
   * @param reason the last pending reason, e.g. {@code Dependency}
   * @param cpuSeconds CPU time, user plus system, when known (for a job: of all its steps)
   * @param submittedAt when the job was submitted, when recorded
   * @param startedAt when it started, empty while it has not ({@code Unknown}, {@code None})
   * @param endedAt when it ended, empty while it has not
   * @param nodes the nodes it ran on, empty when none was assigned ({@code None assigned})
   */
  public record Row(
      String rawId, String id, SlurmState state, String stateText, SlurmExit exit, Optional<Duration> elapsed,
      OptionalLong maxRssBytes, OptionalLong requestedMemoryBytes, String reason, OptionalDouble cpuSeconds,
      Optional<Instant> submittedAt, Optional<Instant> startedAt, Optional<Instant> endedAt, String nodes) {

    /** The job id, or empty for a step or a collapsed range of pending array elements. */
    public Optional<SlurmJobId> jobId() {
      try {
        return Optional.of(SlurmJobId.of(id));
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
    }

    /**
     * Whether Slurm cancelled the job because a dependency can never be met: sacct shows plain
     * {@code CANCELLED} (a cancellation by someone is {@code CANCELLED by <uid>}) with the last pending
     * reason {@code Dependency}.
     */
    public boolean dependencyNeverSatisfied() {
      return state == SlurmState.CANCELLED && !stateText.strip().contains(" ") && reason.startsWith("Dependency");
    }

    /** Whether this row is a step ({@code 17.batch}) rather than a job. */
    public boolean isStep() {
      return id.indexOf('.') >= 0;
    }

    /** The job or array element a step ({@code 23_1.batch}) belongs to; empty for a job's own row. */
    public Optional<SlurmJobId> stepOf() {
      int dot = id.indexOf('.');
      if (dot < 0) {
        return Optional.empty();
      }
      try {
        return Optional.of(SlurmJobId.of(id.substring(0, dot)));
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
    }
  }

  /** The command that lists the allocations (no steps) of {@code queryIds} in {@link #FORMAT}. */
  public static List<String> command(Collection<String> queryIds) {
    return List.of("sacct", "--noheader", "--parsable2", "--allocations", "--jobs=" + String.join(",", queryIds),
        "--format=" + FORMAT);
  }

  /**
   * The command that lists the jobs of {@code queryIds} and their steps in {@link #FORMAT}: the steps carry
   * what each job used (MaxRSS).
   */
  public static List<String> commandWithSteps(Collection<String> queryIds) {
    return List.of("sacct", "--noheader", "--parsable2", "--jobs=" + String.join(",", queryIds),
        "--format=" + FORMAT);
  }

  /**
   * Parses {@code sacct --noheader --parsable2 --format=}{@link #FORMAT}, with or without steps, its
   * times in this machine's time zone (sacct prints them in its own, without a zone).
   *
   * @throws IllegalArgumentException when a line does not have the fields of {@link #FORMAT} or of an
   *     earlier Berth's format (its first eight or nine)
   */
  public static List<Row> parse(String stdout) {
    return parse(stdout, ZoneId.systemDefault());
  }

  /**
   * Parses {@code sacct --noheader --parsable2 --format=}{@link #FORMAT}, with or without steps, and
   * output in the formats earlier Berths asked for: without the times and nodes, and without TotalCPU.
   *
   * @param zone the time zone sacct printed its times in
   * @throws IllegalArgumentException when a line has neither 8, 9 nor 13 fields
   */
  public static List<Row> parse(String stdout, ZoneId zone) {
    List<Row> rows = new ArrayList<>();
    for (String line : stdout.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split("\\|", -1);
      if (f.length != 8 && f.length != 9 && f.length != 13) {
        throw new IllegalArgumentException("sacct line '" + line + "' does not have the 13 fields of " + FORMAT);
      }
      boolean timed = f.length == 13;
      rows.add(new Row(f[0], f[1], SlurmState.parse(f[2]), f[2], SlurmExit.parse(f[3]), elapsed(f[4]),
          memory(f[5]), memory(f[6]), f[7], f.length >= 9 ? seconds(f[8]) : OptionalDouble.empty(),
          timed ? time(f[9], zone) : Optional.empty(), timed ? time(f[10], zone) : Optional.empty(),
          timed ? time(f[11], zone) : Optional.empty(), timed ? nodes(f[12]) : ""));
    }
    return rows;
  }

  /** Parses a time as sacct prints it ({@code 2026-11-29T19:25:01}); {@code Unknown}, {@code None} or empty give empty. */
  static Optional<Instant> time(String text, ZoneId zone) {
    try {
      return Optional.of(LocalDateTime.parse(text.strip()).atZone(zone).toInstant());
    } catch (DateTimeParseException notATime) {
      return Optional.empty();
    }
  }

  /** The node list, empty for {@code None assigned}. */
  private static String nodes(String text) {
    String nodes = text.strip();
    return nodes.startsWith("None") ? "" : nodes;
  }

  /**
   * Parses {@code sacct --json} (Slurm 22.05, OpenAPI v0.0.38): one row per job or array element,
   * with the largest step memory as its MaxRSS. The exit code is taken as printed; see the class
   * comment for why it cannot be trusted on 22.05.
   *
   * @throws IllegalArgumentException when the text is not such a document
   */
  public static List<Row> parseJson(String json) {
    List<Row> rows = new ArrayList<>();
    for (JsonNode job : JobsJson.read(json, "sacct")) {
      String raw = job.path("job_id").asText();
      JsonNode task = job.path("array").path("task_id");
      String id = task.isIntegralNumber() ? job.path("array").path("job_id").asText() + "_" + task.asText() : raw;
      String state = job.path("state").path("current").asText();
      JsonNode elapsed = job.path("time").path("elapsed");
      JsonNode time = job.path("time");
      rows.add(new Row(raw, id, SlurmState.parse(state), state, jsonExit(job.path("exit_code")),
          elapsed.isNumber() ? Optional.of(Duration.ofSeconds(elapsed.asLong())) : Optional.empty(),
          maxStepMemory(job.path("steps")), requestedMemory(job.path("tres").path("requested")),
          job.path("state").path("reason").asText(""), OptionalDouble.empty(), epoch(time.path("submission")),
          epoch(time.path("start")), epoch(time.path("end")), nodes(job.path("nodes").asText(""))));
    }
    return rows;
  }

  /** A time in seconds since the epoch; 0 or none (not started, not ended) gives empty. */
  private static Optional<Instant> epoch(JsonNode seconds) {
    return seconds.isNumber() && seconds.asLong() > 0 ? Optional.of(Instant.ofEpochSecond(seconds.asLong()))
        : Optional.empty();
  }

  private static SlurmExit jsonExit(JsonNode exit) {
    if ("SIGNALED".equals(exit.path("status").asText())) {
      return new SlurmExit(0, exit.path("signal").path("signal_id").asInt(0));
    }
    return new SlurmExit(exit.path("return_code").asInt(0), 0);
  }

  private static OptionalLong maxStepMemory(JsonNode steps) {
    long max = -1;
    for (JsonNode step : steps) {
      for (JsonNode tres : step.path("tres").path("requested").path("max")) {
        if ("mem".equals(tres.path("type").asText()) && tres.path("count").isNumber()) {
          max = Math.max(max, tres.path("count").asLong());
        }
      }
    }
    return max < 0 ? OptionalLong.empty() : OptionalLong.of(max);
  }

  private static OptionalLong requestedMemory(JsonNode requested) {
    for (JsonNode tres : requested) {
      if ("mem".equals(tres.path("type").asText()) && tres.path("count").isNumber()) {
        return OptionalLong.of(tres.path("count").asLong() << 20);
      }
    }
    return OptionalLong.empty();
  }

  /** Parses {@code [D-]HH:MM:SS} and {@code MM:SS}; empty text gives empty. */
  static Optional<Duration> elapsed(String text) {
    Matcher m = ELAPSED.matcher(text.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    long days = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
    long hours = m.group(2) == null ? 0 : Long.parseLong(m.group(2));
    return Optional.of(Duration.ofDays(days).plusHours(hours).plusMinutes(Long.parseLong(m.group(3)))
        .plusSeconds(Long.parseLong(m.group(4))));
  }

  /** Parses a CPU time such as {@code 00:01.248} or {@code 1-02:03:04} in seconds; empty text gives empty. */
  static OptionalDouble seconds(String text) {
    Matcher m = ELAPSED.matcher(text.strip());
    if (!m.matches()) {
      return OptionalDouble.empty();
    }
    double fraction = m.group(5) == null ? 0 : Double.parseDouble("0" + m.group(5));
    return OptionalDouble.of(elapsed(text).orElseThrow().toSeconds() + fraction);
  }

  /** Parses Slurm's sizes such as {@code 424520K} or {@code 100M} (powers of 1024); empty text gives empty. */
  static OptionalLong memory(String text) {
    Matcher m = MEMORY.matcher(text.strip());
    if (!m.matches()) {
      return OptionalLong.empty();
    }
    String unit = m.group(2).toUpperCase(Locale.ROOT);
    int power = unit.isEmpty() ? 0 : "KMGTP".indexOf(unit) + 1;
    return OptionalLong.of((long) Math.ceil(Double.parseDouble(m.group(1)) * Math.pow(1024, power)));
  }
}

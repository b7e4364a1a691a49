package dev.berth.slurm;

import dev.berth.core.scheduling.JobLimit;
import dev.berth.os.CommandRunner;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * The limits of the cluster that shape what Berth submits, read once per executor: from {@code scontrol
 * show config}, {@code MaxArraySize} (an array's indices must stay below it) and {@code MaxJobCount} (the
 * most jobs the controller holds); from {@code sacctmgr show assoc}, the user's {@code MaxSubmitJobs} (the
 * most of their jobs pending or running at once). A cluster that does not say keeps Slurm's default array
 * size and sets no job limit; a refusal still splits an array ({@link ParallelSubmissions}) and makes a
 * job wait in Berth ({@link QueueRoom}), so a limit read wrong costs submissions, never tasks.
 *
 * @param maxArraySize the cluster's {@code MaxArraySize}: at most this many elements in one array
 * @param maxJobCount the cluster's {@code MaxJobCount}, when it shows one
 * @param maxSubmitJobs the smallest {@code MaxSubmitJobs} among the user's associations, when one sets it
 */
record ClusterLimits(int maxArraySize, OptionalInt maxJobCount, OptionalInt maxSubmitJobs) {

  /** Slurm's own default {@code MaxArraySize}. */
  static final int DEFAULT_MAX_ARRAY_SIZE = 1001;
  /**
   * The most elements Berth puts in one array even where the cluster allows more: a larger array is one
   * squeue and sacct answer that large, and a refusal of it costs more to split.
   */
  static final int MAX_ELEMENTS = 1000;

  /** What Berth assumes when the cluster does not say. */
  static final ClusterLimits DEFAULTS = new ClusterLimits(DEFAULT_MAX_ARRAY_SIZE, OptionalInt.empty(), OptionalInt.empty());

  /** At most this many tasks in one array. */
  int arrayElements() {
    return Math.max(1, Math.min(MAX_ELEMENTS, maxArraySize));
  }

  /** How many of the run's jobs these limits let the cluster hold at once; each names where it was read. */
  List<JobLimit> jobLimits() {
    List<JobLimit> limits = new ArrayList<>();
    maxSubmitJobs.ifPresent(n -> limits.add(new JobLimit(n, "MaxSubmitJobs=" + n + " of the user's association"
        + " (sacctmgr)")));
    maxJobCount.ifPresent(n -> limits.add(new JobLimit(n, "MaxJobCount=" + n + " of the cluster (scontrol)")));
    return List.copyOf(limits);
  }

  /** The limits {@code scontrol show config} printed; what it leaves out keeps the defaults. */
  static ClusterLimits parse(String config) {
    int maxArraySize = DEFAULT_MAX_ARRAY_SIZE;
    OptionalInt maxJobCount = OptionalInt.empty();
    for (String line : config.lines().toList()) {
      int equals = line.indexOf('=');
      if (equals < 0) {
        continue;
      }
      String name = line.substring(0, equals).strip().toLowerCase(Locale.ROOT);
      OptionalInt value = number(line.substring(equals + 1));
      if (name.equals("maxarraysize") && value.isPresent()) {
        maxArraySize = value.getAsInt();
      } else if (name.equals("maxjobcount") && value.isPresent() && value.getAsInt() > 0) {
        maxJobCount = value;
      }
    }
    return new ClusterLimits(maxArraySize, maxJobCount, OptionalInt.empty());
  }

  /**
   * The smallest {@code MaxSubmitJobs} of the lines {@code sacctmgr show assoc format=MaxSubmitJobs,MaxJobs -P
   * -n} printed (one per association, {@code |}-separated, empty where unset); empty when none sets it.
   */
  static OptionalInt maxSubmitJobs(String associations) {
    OptionalInt smallest = OptionalInt.empty();
    for (String line : associations.lines().toList()) {
      String first = line.split("\\|", -1)[0].strip();
      OptionalInt value = first.chars().allMatch(Character::isDigit) ? number(first) : OptionalInt.empty();
      if (value.isPresent() && (smallest.isEmpty() || value.getAsInt() < smallest.getAsInt())) {
        smallest = value;
      }
    }
    return smallest;
  }

  /** Reads the limits; what scontrol or sacctmgr cannot tell (not there, refused, not visible) sets none. */
  static ClusterLimits read(CommandRunner runner, Duration timeout, String user) {
    ClusterLimits config = DEFAULTS;
    OptionalInt maxSubmitJobs = OptionalInt.empty();
    try {
      CommandRunner.Result result = runner.run(List.of("scontrol", "show", "config"), timeout);
      if (result.succeeded()) {
        config = parse(result.stdout());
      }
    } catch (IOException e) {
      // the defaults
    }
    try {
      CommandRunner.Result result = runner.run(List.of("sacctmgr", "show", "assoc", "user=" + user,
          "format=MaxSubmitJobs,MaxJobs", "-P", "-n"), timeout);
      if (result.succeeded()) {
        maxSubmitJobs = maxSubmitJobs(result.stdout());
      }
    } catch (IOException e) {
      // no accounting here: no limit of the user's
    }
    return new ClusterLimits(config.maxArraySize(), config.maxJobCount(), maxSubmitJobs);
  }

  private static OptionalInt number(String text) {
    String t = text.strip();
    int end = 0;
    while (end < t.length() && Character.isDigit(t.charAt(end))) {
      end++;
    }
    if (end == 0 || end > 9) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(Integer.parseInt(t.substring(0, end)));
  }
}

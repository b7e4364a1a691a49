package dev.berth.core.model;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a run uses a Slurm cluster ({@code slurm.*}, or the spec's top-level {@code slurm:} block);
 * read only when {@code scheduler.executor} is {@code slurm}. Only carried and checked here; the
 * slurm module turns it into sbatch options.
 *
 * @param mode {@code jobs}: every attempt is a batch job (matrix tasks with the same resources share a
 *     job array); {@code allocation}: Berth asks for whole allocations and packs the tasks inside each
 *     with its own local engine ({@code slurm.mode})
 * @param partition {@code --partition}, empty for the cluster's default ({@code slurm.partition})
 * @param account {@code --account}, empty for the default ({@code slurm.account})
 * @param qos {@code --qos}, empty for the default ({@code slurm.qos})
 * @param time {@code --time} for tasks without a timeout of their own, and for each allocation, in
 *     Berth's duration form ({@code 4h}); zero leaves the partition's default ({@code slurm.time})
 * @param extraArgs more sbatch options, passed as given ({@code slurm.extra-args})
 * @param workdirRoot where task folders go, on a filesystem every node mounts at the same path; empty
 *     means the run's workdir ({@code slurm.workdir-root})
 * @param gpuMemoryGres how a share of a GPU is asked for: {@code none} (a whole GPU), {@code shard},
 *     {@code shard:10GiB} or a count GRES such as {@code gpumem:1MiB} ({@code slurm.gpu-memory-gres})
 * @param arrays whether matrix tasks with the same resources are submitted as one job array ({@code slurm.arrays})
 * @param maxJobs most of the run's jobs in Slurm's hands at once, pending or running (array elements count
 *     one each, as Slurm's {@code MaxSubmitJobs} counts them); 0 = no limit ({@code slurm.max-jobs})
 * @param gres the GRES of each allocation in mode {@code allocation}, e.g. {@code gpu:8} ({@code slurm.gres})
 * @param cpus cores of each allocation, 0 for the cluster's default ({@code slurm.cpus})
 * @param memoryBytes memory of each allocation, 0 for the cluster's default ({@code slurm.memory})
 * @param maxAllocations most allocations one run asks for, one after another, while tasks are left
 *     (an allocation that reaches its time limit is followed by one that resumes) ({@code slurm.max-allocations})
 * @param onExit what Ctrl-C does to submitted jobs: {@code cancel} them, {@code leave} them running for a
 *     later {@code berth resume}, or {@code ask} (on a terminal; elsewhere it cancels) ({@code slurm.on-exit})
 * @param pollMax the longest wait between two squeue calls while nothing changes ({@code slurm.poll-max})
 */
public record SlurmConfig(
    String mode, String partition, String account, String qos, Duration time, List<String> extraArgs,
    String workdirRoot, String gpuMemoryGres, boolean arrays, int maxJobs, String gres, int cpus, long memoryBytes,
    int maxAllocations, String onExit, Duration pollMax) {

  private static final Pattern WORD = Pattern.compile("[^\\s,]*");

  /** Every default: jobs mode, nothing asked beyond the tasks' own resources. */
  public static final SlurmConfig DEFAULTS = new SlurmConfig("jobs", "", "", "", Duration.ZERO, List.of(), "", "none",
      true, 0, "", 0, 0, 10, "ask", Duration.ofSeconds(5));

  /** Validates each value alone, naming the key. */
  public SlurmConfig {
    oneOf("slurm.mode", mode, List.of("jobs", "allocation"));
    word("slurm.partition", partition);
    word("slurm.account", account);
    word("slurm.qos", qos);
    Objects.requireNonNull(time, "time");
    if (time.isNegative()) {
      throw new IllegalArgumentException("slurm.time must be >= 0 but was " + time);
    }
    extraArgs = List.copyOf(extraArgs);
    for (String arg : extraArgs) {
      if (!arg.startsWith("-")) {
        throw new IllegalArgumentException(
            "slurm.extra-args must be sbatch options starting with '-', one per item, but one was '" + arg + "'");
      }
    }
    Objects.requireNonNull(workdirRoot, "workdirRoot");
    try {
      GpuMemoryGres.parse(Objects.requireNonNull(gpuMemoryGres, "gpuMemoryGres"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("slurm.gpu-memory-gres must be none, shard, shard:SIZE or NAME:SIZE such as"
          + " gpumem:1MiB but was '" + gpuMemoryGres + "'", e);
    }
    word("slurm.gres", gres.replace(",", ""));
    if (maxJobs < 0) {
      throw new IllegalArgumentException("slurm.max-jobs must be >= 0 but was " + maxJobs);
    }
    if (cpus < 0 || memoryBytes < 0) {
      throw new IllegalArgumentException("slurm.cpus and slurm.memory must be >= 0");
    }
    if (maxAllocations < 1) {
      throw new IllegalArgumentException("slurm.max-allocations must be >= 1 but was " + maxAllocations);
    }
    oneOf("slurm.on-exit", onExit, List.of("ask", "cancel", "leave"));
    Objects.requireNonNull(pollMax, "pollMax");
    if (pollMax.isNegative() || pollMax.isZero()) {
      throw new IllegalArgumentException("slurm.poll-max must be > 0 but was " + pollMax);
    }
  }

  /**
   * This configuration with one {@code slurm.*} key changed; {@code v} has the key's type.
   *
   * @throws IllegalArgumentException for a key that is not a Slurm setting, or a value it refuses
   */
  @SuppressWarnings("unchecked")
  public SlurmConfig with(String key, Object v) {
    switch (key) {
      case "mode":
        return new SlurmConfig((String) v, partition, account, qos, time, extraArgs, workdirRoot, gpuMemoryGres, arrays, maxJobs, gres, cpus, memoryBytes, maxAllocations, onExit, pollMax);
      case "partition":
        return new SlurmConfig(mode, (String) v, account, qos, time, extraArgs, workdirRoot, gpuMemoryGres, arrays, maxJobs, gres, cpus, memoryBytes, maxAllocations, onExit, pollMax);
      case "account":
        return new SlurmConfig(mode, partition, (String) v, qos, time, extraArgs, workdirRoot, gpuMemoryGres, arrays, maxJobs, gres, cpus, memoryBytes, maxAllocations, onExit, pollMax);
      case "qos":
        return new SlurmConfig(mode, partition, account, (String) v, time, extraArgs, workdirRoot, gpuMemoryGres, arrays, maxJobs, gres, cpus, memoryBytes, maxAllocations, onExit, pollMax);
      case "time":
        return new SlurmConfig(mode, partition, account, qos, (Duration) v, extraArgs, workdirRoot, gpuMemoryGres, arrays, maxJobs, gres, cpus, memoryBytes, maxAllocations, onExit, pollMax);
      case "extra-args":
        return new SlurmConfig(mode, partition, account, qos, time, (List<String>) v, workdirRoot, gpuMemoryGres, arrays, maxJobs, gres, cpus, memoryBytes, maxAllocations, onExit, pollMax);
      case "workdir-root":
        return new SlurmConfig(mode, partition, account, qos, time, extraArgs, (String) v, gpuMemoryGres, arrays, maxJobs, gres, cpus, memoryBytes, maxAllocations, onExit, pollMax);
      case "gpu-memory-gres":
        return new SlurmConfig(mode, partition, account, qos, time, extraArgs, workdirRoot, (String) v, arrays, maxJobs, gres, cpus, memoryBytes, maxAllocations, onExit, pollMax);
      case "arrays":
        return new SlurmConfig(mode, partition, account, qos, time, extraArgs, workdirRoot, gpuMemoryGres, (Boolean) v, maxJobs, gres, cpus, memoryBytes, maxAllocations, onExit, pollMax);
      case "max-jobs":
        return new SlurmConfig(mode, partition, account, qos, time, extraArgs, workdirRoot, gpuMemoryGres, arrays, (Integer) v, gres, cpus, memoryBytes, maxAllocations, onExit, pollMax);
      case "gres":
        return new SlurmConfig(mode, partition, account, qos, time, extraArgs, workdirRoot, gpuMemoryGres, arrays, maxJobs, (String) v, cpus, memoryBytes, maxAllocations, onExit, pollMax);
      case "cpus":
        return new SlurmConfig(mode, partition, account, qos, time, extraArgs, workdirRoot, gpuMemoryGres, arrays, maxJobs, gres, (Integer) v, memoryBytes, maxAllocations, onExit, pollMax);
      case "memory":
        return new SlurmConfig(mode, partition, account, qos, time, extraArgs, workdirRoot, gpuMemoryGres, arrays, maxJobs, gres, cpus, (Long) v, maxAllocations, onExit, pollMax);
      case "max-allocations":
        return new SlurmConfig(mode, partition, account, qos, time, extraArgs, workdirRoot, gpuMemoryGres, arrays, maxJobs, gres, cpus, memoryBytes, (Integer) v, onExit, pollMax);
      case "on-exit":
        return new SlurmConfig(mode, partition, account, qos, time, extraArgs, workdirRoot, gpuMemoryGres, arrays, maxJobs, gres, cpus, memoryBytes, maxAllocations, (String) v, pollMax);
      case "poll-max":
        return new SlurmConfig(mode, partition, account, qos, time, extraArgs, workdirRoot, gpuMemoryGres, arrays, maxJobs, gres, cpus, memoryBytes, maxAllocations, onExit, (Duration) v);
      default:
        throw new IllegalArgumentException("slurm." + key + " is not a Slurm setting");
    }
  }

  /** Whether Berth packs tasks inside whole allocations. */
  public boolean allocationMode() {
    return mode.equals("allocation");
  }

  private static void oneOf(String key, String value, List<String> allowed) {
    if (!allowed.contains(value)) {
      throw new IllegalArgumentException(key + " must be " + String.join(" or ", allowed) + " but was '" + value + "'");
    }
  }

  private static void word(String key, String value) {
    if (!WORD.matcher(Objects.requireNonNull(value, key)).matches()) {
      throw new IllegalArgumentException(key + " must be one word without spaces or commas but was '" + value + "'");
    }
  }
}

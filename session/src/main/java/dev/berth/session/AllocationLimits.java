package dev.berth.session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;

/**
 * What a Slurm allocation lets the Berth inside it use, read from the job's environment and its own
 * cgroup: Slurm kills the whole allocation when its processes together pass its memory, so the Berth
 * inside must admit no more than fits, whatever the node has free.
 *
 * @param memoryBytes the allocation's memory: {@code SLURM_MEM_PER_NODE}, or {@code SLURM_MEM_PER_CPU}
 *     times {@code SLURM_CPUS_ON_NODE} (both in MiB), or the cgroup's limit when that is lower; empty
 *     when nothing says
 * @param cpus {@code SLURM_CPUS_ON_NODE}
 * @param gpus the GPUs Slurm gave the job: {@code CUDA_VISIBLE_DEVICES}, else {@code SLURM_JOB_GPUS}
 */
record AllocationLimits(OptionalLong memoryBytes, OptionalInt cpus, Optional<String> gpus) {

  private static final long MIB = 1L << 20;
  /** cgroup v1 writes "no limit" as a number near 2^63. */
  private static final long NO_LIMIT = 1L << 62;

  /** The limits that {@code env} and a cgroup limit ({@link #cgroupMemoryLimit}) give. */
  static AllocationLimits of(UnaryOperator<String> env, OptionalLong cgroupLimit) {
    OptionalInt cpus = number(env.apply("SLURM_CPUS_ON_NODE")).stream().mapToInt(Math::toIntExact).findFirst();
    OptionalLong memory = number(env.apply("SLURM_MEM_PER_NODE")).stream().map(mib -> mib * MIB).findFirst();
    OptionalLong perCpu = number(env.apply("SLURM_MEM_PER_CPU"));
    if (memory.isEmpty() && perCpu.isPresent() && cpus.isPresent()) {
      memory = OptionalLong.of(perCpu.getAsLong() * cpus.getAsInt() * MIB);
    }
    if (cgroupLimit.isPresent() && (memory.isEmpty() || cgroupLimit.getAsLong() < memory.getAsLong())) {
      memory = cgroupLimit;
    }
    Optional<String> gpus = devices(env.apply("CUDA_VISIBLE_DEVICES")).or(() -> devices(env.apply("SLURM_JOB_GPUS")));
    return new AllocationLimits(memory, cpus, gpus);
  }

  /** The limits of the job this process runs in, from its environment and {@code /proc/self/cgroup}. */
  static AllocationLimits ofThisJob(UnaryOperator<String> env) {
    return of(env, cgroupMemoryLimit(Path.of("/proc/self/cgroup"), Path.of("/sys/fs/cgroup")));
  }

  /**
   * The memory limit of the cgroup that {@code procSelfCgroup} names, under the cgroup file systems
   * mounted at {@code mount}: v2's {@code memory.max} or v1's {@code memory.limit_in_bytes}. Inside a
   * cgroup namespace the named path is not visible, and the mount's root is the process's own cgroup.
   * Empty when there is no limit or it cannot be read.
   */
  static OptionalLong cgroupMemoryLimit(Path procSelfCgroup, Path mount) {
    List<String> lines;
    try {
      lines = Files.readAllLines(procSelfCgroup);
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
    for (String line : lines) {
      String[] f = line.split(":", 3);
      if (f.length != 3) {
        continue;
      }
      boolean v1 = List.of(f[1].split(",")).contains("memory");
      if (!v1 && !(f[0].equals("0") && f[1].isEmpty())) {
        continue;
      }
      Path root = v1 ? mount.resolve("memory") : mount;
      String file = v1 ? "memory.limit_in_bytes" : "memory.max";
      OptionalLong limit = limit(root.resolve(f[2].replaceFirst("^/+", "")).resolve(file));
      if (limit.isEmpty()) {
        limit = limit(root.resolve(file));
      }
      if (limit.isPresent()) {
        return limit;
      }
    }
    return OptionalLong.empty();
  }

  private static OptionalLong limit(Path file) {
    try {
      OptionalLong value = number(Files.readString(file).strip());
      return value.isPresent() && value.getAsLong() < NO_LIMIT ? value : OptionalLong.empty();
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  private static OptionalLong number(String text) {
    return text != null && text.matches("[0-9]{1,18}") ? OptionalLong.of(Long.parseLong(text)) : OptionalLong.empty();
  }

  private static Optional<String> devices(String text) {
    return text != null && text.matches("[0-9]+(,[0-9]+)*") ? Optional.of(text) : Optional.empty();
  }
}

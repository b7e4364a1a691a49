package dev.berth.spi;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.TaskId;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything an executor needs to start one attempt of a task.
 *
 * @param task the task
 * @param attempt 1-based attempt number
 * @param command argument vector; never run through a shell
 * @param env variables added to the inherited environment
 * @param workdir the working directory, created by the executor if missing
 * @param stdout file that receives standard output (appended)
 * @param stderr file that receives standard error (appended)
 * @param reservation what the scheduler reserved for this attempt: host memory, cores and GPU memory
 *     (grown after an out-of-memory ending); a cluster executor asks the cluster for it
 * @param gpus whole GPUs the task asks for (0 when none or a share of one)
 * @param upstream dependencies the executor should hold the attempt back for, when it can
 * @param arrayKey attempts with the same key come from one matrix and may be submitted together
 *     (as one job array); empty when the attempt stands alone
 * @param enforceMemory whether a local executor limits the attempt's memory to its reservation, as the task
 *     or its group set it ({@code enforce-memory}); empty when the executor's configured default applies
 * @param pool the engine pool whose warm engines run the attempt, name and settings, as the task carries it
 *     ({@code pool}); empty for an attempt that runs as a process of its own
 */
public record LaunchRequest(
    TaskId task, int attempt, List<String> command, SortedMap<String, String> env, Path workdir, Path stdout,
    Path stderr, Placement reservation, int gpus, Optional<Upstream> upstream, Optional<String> arrayKey,
    Optional<Boolean> enforceMemory, Optional<PoolSpec> pool) {

  /** Validates and copies. */
  public LaunchRequest {
    Objects.requireNonNull(task, "task");
    command = List.copyOf(command);
    if (command.isEmpty()) {
      throw new IllegalArgumentException("command must not be empty");
    }
    env = Collections.unmodifiableSortedMap(new TreeMap<>(env));
    Objects.requireNonNull(workdir, "workdir");
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    Objects.requireNonNull(reservation, "reservation");
    if (gpus < 0) {
      throw new IllegalArgumentException("gpus must be >= 0 but was " + gpus);
    }
    Objects.requireNonNull(upstream, "upstream");
    Objects.requireNonNull(arrayKey, "arrayKey");
    Objects.requireNonNull(enforceMemory, "enforceMemory");
    Objects.requireNonNull(pool, "pool");
  }

  /** A request that runs as a process of its own, in no pool. */
  public LaunchRequest(
      TaskId task, int attempt, List<String> command, SortedMap<String, String> env, Path workdir, Path stdout,
      Path stderr, Placement reservation, int gpus, Optional<Upstream> upstream, Optional<String> arrayKey,
      Optional<Boolean> enforceMemory) {
    this(task, attempt, command, env, workdir, stdout, stderr, reservation, gpus, upstream, arrayKey, enforceMemory,
        Optional.empty());
  }

  /** A request that leaves memory enforcement to the executor's default. */
  public LaunchRequest(
      TaskId task, int attempt, List<String> command, SortedMap<String, String> env, Path workdir, Path stdout,
      Path stderr, Placement reservation, int gpus, Optional<Upstream> upstream, Optional<String> arrayKey) {
    this(task, attempt, command, env, workdir, stdout, stderr, reservation, gpus, upstream, arrayKey,
        Optional.empty());
  }

  /** A request with nothing reserved, no upstream and no array. */
  public LaunchRequest(
      TaskId task, int attempt, List<String> command, SortedMap<String, String> env, Path workdir, Path stdout,
      Path stderr) {
    this(task, attempt, command, env, workdir, stdout, stderr, Placement.cpu(0, 0), 0, Optional.empty(),
        Optional.empty());
  }

  /** The same request with this reservation. */
  public LaunchRequest withReservation(Placement placement, int wholeGpus) {
    return new LaunchRequest(task, attempt, command, env, workdir, stdout, stderr, placement, wholeGpus, upstream,
        arrayKey, enforceMemory, pool);
  }

  /** The same request, held back until {@code held} is met. */
  public LaunchRequest withUpstream(Upstream held) {
    return new LaunchRequest(task, attempt, command, env, workdir, stdout, stderr, reservation, gpus,
        Optional.of(held), arrayKey, enforceMemory, pool);
  }

  /** The same request, allowed to share a job array with others of the same key. */
  public LaunchRequest withArrayKey(String key) {
    return new LaunchRequest(task, attempt, command, env, workdir, stdout, stderr, reservation, gpus, upstream,
        Optional.of(key), enforceMemory, pool);
  }

  /** The same request, with the task's own choice of memory enforcement (empty: the executor's default). */
  public LaunchRequest withEnforceMemory(Optional<Boolean> limit) {
    return new LaunchRequest(task, attempt, command, env, workdir, stdout, stderr, reservation, gpus, upstream,
        arrayKey, limit, pool);
  }

  /** The same request, run in {@code engines}' warm engines (empty: as a process of its own). */
  public LaunchRequest withPool(Optional<PoolSpec> engines) {
    return new LaunchRequest(task, attempt, command, env, workdir, stdout, stderr, reservation, gpus, upstream,
        arrayKey, enforceMemory, engines);
  }
}

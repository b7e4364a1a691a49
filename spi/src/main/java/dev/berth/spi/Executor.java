package dev.berth.spi;

import dev.berth.core.scheduling.JobLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Starts task processes. Implementations must report every exit exactly once through the listener,
 * including exits of processes that were terminated.
 */
public interface Executor extends AutoCloseable {

  /**
   * Starts one attempt.
   *
   * @param request what to start
   * @param onExit called once when the process exits
   * @return the running process
   * @throws LaunchException when the process could not be started (the listener is then not called)
   */
  Execution launch(LaunchRequest request, ExitListener onExit) throws LaunchException;

  /**
   * Starts the attempts one decision pass chose, in order; an executor that can submit several at
   * once (a job array) overrides this. Each request that fails does so alone; its listener is not called.
   *
   * @return one {@link Launch} per request, in the same order
   */
  default List<Launch> launchAll(List<LaunchRequest> requests, Function<LaunchRequest, ExitListener> onExit) {
    List<Launch> launches = new ArrayList<>(requests.size());
    for (LaunchRequest request : requests) {
      try {
        launches.add(Launch.started(request, launch(request, onExit.apply(request))));
      } catch (LaunchException e) {
        launches.add(Launch.failed(request, e));
      }
    }
    return launches;
  }

  /**
   * Finds an attempt an earlier Berth started, from what it left in the attempt's folder, and
   * watches it again: its exit (or the exit it already had) is reported to {@code onExit}. Local
   * processes are found another way, so the default finds nothing.
   *
   * @return the attempt, or empty when this executor cannot find it (it then never started)
   */
  default Optional<Execution> reattach(LaunchRequest request, ExitListener onExit) {
    return Optional.empty();
  }

  /** Whether this executor holds attempts back for an {@link Upstream} (a batch system's job dependencies). */
  default boolean holdsUpstream() {
    return false;
  }

  /**
   * How many of the run's jobs the cluster takes at once, pending or running: the limits it told,
   * and those its refusals of a start for now ({@link LaunchException#startsLater()}) taught, which end
   * when they say. Asked before each decision pass, on the engine's loop; only a first call may wait for
   * the cluster. None by default.
   */
  default List<JobLimit> jobLimits() {
    return List.of();
  }

  /** Releases the executor's threads. Running processes are not touched. */
  @Override
  void close();
}

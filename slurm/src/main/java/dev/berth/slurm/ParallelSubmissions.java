package dev.berth.slurm;

import dev.berth.os.DaemonThreads;
import dev.berth.spi.ExitListener;
import dev.berth.spi.Launch;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Submits one decision pass's attempts for {@link SlurmExecutor#launchAll}: groups them into job arrays
 * and single jobs ({@link ArrayPlan}) and runs up to {@link SlurmTuning#parallelSubmissions()} of
 * these submissions at once on {@code berth-slurm-submit} threads, since each sbatch call waits for the
 * controller's answer.
 */
final class ParallelSubmissions {

  private final SlurmConfig slurm;
  private final SlurmTuning tuning;
  private final SlurmExecutor executor;
  private final ExecutorService submissions;
  private final Supplier<ClusterLimits> limits;
  /**
   * The most elements in one array: the cluster's limit once read (0 before), lowered when the cluster
   * refuses an array of that size anyway (a limit per partition or association that the configuration
   * does not show).
   */
  private final AtomicInteger arrayElements = new AtomicInteger();

  /** @param limits reads the cluster's limits; asked once, when the first array is planned */
  ParallelSubmissions(SlurmConfig slurm, SlurmTuning tuning, SlurmExecutor executor, Supplier<ClusterLimits> limits) {
    this.slurm = slurm;
    this.tuning = tuning;
    this.executor = executor;
    this.limits = limits;
    this.submissions = Executors.newFixedThreadPool(
        tuning.parallelSubmissions(), DaemonThreads.named("berth-slurm-submit", true));
  }

  /** One launch per request, in order: started, or failed with the reason. */
  List<Launch> launchAll(List<LaunchRequest> requests, Function<LaunchRequest, ExitListener> onExit) {
    Launch[] launches = new Launch[requests.size()];
    List<SlurmResources> asked = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      try {
        asked.add(executor.resourcesFor(requests.get(i)));
      } catch (LaunchException e) {
        asked.add(null);
        launches[i] = Launch.failed(requests.get(i), e);
      }
    }
    List<Future<?>> pending = new ArrayList<>();
    for (List<Integer> unit : ArrayPlan.units(slurm, executor::optionsFor, requests, asked, this::arrayElements)) {
      if (launches[unit.get(0)] != null) {
        continue; // its resources could not be asked for
      }
      // Each unit writes only its own slot of launches; the futures' completion publishes them.
      pending.add(submissions.submit(() -> submitUnit(unit, requests, asked, onExit, launches)));
    }
    for (Future<?> f : pending) {
      awaitSubmission(f);
    }
    return List.copyOf(Arrays.asList(launches));
  }

  private int arrayElements() {
    return arrayElements.updateAndGet(known -> known > 0 ? known : limits.get().arrayElements());
  }

  /** Stops the submission threads once the submissions under way are done. */
  void close() {
    submissions.shutdown();
  }

  private void submitUnit(List<Integer> unit, List<LaunchRequest> requests, List<SlurmResources> asked,
      Function<LaunchRequest, ExitListener> onExit, Launch[] launches) {
    if (unit.size() > 1) {
      submitArray(unit, requests, asked, onExit, launches);
      return;
    }
    int i = unit.get(0);
    LaunchRequest request = requests.get(i);
    try {
      launches[i] = Launch.started(request, executor.launchHeld(request, asked.get(i), onExit.apply(request)));
    } catch (LaunchException e) {
      launches[i] = Launch.failed(request, e);
    }
  }

  private void submitArray(
      List<Integer> unit, List<LaunchRequest> requests, List<SlurmResources> asked,
      Function<LaunchRequest, ExitListener> onExit, Launch[] launches) {
    List<LaunchRequest> elements = unit.stream().map(requests::get).toList();
    List<ExitListener> listeners = elements.stream().map(onExit).toList();
    LaunchRequest first = elements.get(0);
    String key = first.arrayKey().orElseThrow();
    try {
      List<SlurmExecution> started = executor.launchArray(new ArraySubmission(key, elements, asked.get(unit.get(0)),
          tuning.arrayMaxRunning(), SlurmExecutor.arrayFolder(first), Optional.empty()), listeners);
      for (int k = 0; k < unit.size(); k++) {
        launches[unit.get(k)] = Launch.started(elements.get(k), started.get(k));
      }
    } catch (LaunchException | IllegalArgumentException e) {
      if (refusedForSize(e)) {
        // A limit the configuration did not show: smaller arrays, never as many failed tasks.
        int half = (unit.size() + 1) / 2;
        arrayElements.accumulateAndGet(half, Math::min);
        submitUnit(unit.subList(0, half), requests, asked, onExit, launches);
        submitUnit(unit.subList(half, unit.size()), requests, asked, onExit, launches);
        return;
      }
      boolean later = e instanceof LaunchException refused && refused.startsLater();
      String why = later ? LaunchFailures.laterReason(e.getMessage()) : LaunchFailures.withoutPrefix(elements, e.getMessage());
      for (int k = 0; k < unit.size(); k++) {
        String reason = "its job array '" + key + "' of " + unit.size() + " tasks was not submitted: " + why;
        launches[unit.get(k)] = Launch.failed(elements.get(k), later
            ? LaunchFailures.later(elements.get(k), reason) : LaunchFailures.of(elements.get(k), reason, e));
      }
    }
  }

  /** Whether sbatch refused an array for its size (Slurm: "Invalid job array specification"). */
  static boolean refusedForSize(Exception e) {
    String message = e.getMessage();
    return message != null && message.toLowerCase(java.util.Locale.ROOT).contains("invalid job array specification");
  }

  private static void awaitSubmission(Future<?> submission) {
    boolean interrupted = false;
    while (true) {
      try {
        submission.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // a submission in flight must be recorded, or its job would be lost
      } catch (ExecutionException e) {
        throw new IllegalStateException("a submission failed unexpectedly", e.getCause());
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}

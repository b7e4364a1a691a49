package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.AttemptStage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.units.ByteSize;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a task's history says about its attempts: out-of-memory counts, train calls, the
 * reservations the next attempt gets, and how an attempt that just ended ends. Pure.
 *
 * <p>fedflow's budgets count attempts, not retries: with {@code scheduler.load-nretry: 3} a task
 * gets at most 3 attempts that end out of host memory; the third fails it with
 * {@code LoadNumbersExceed}. Likewise {@code train-nretry} caps train calls (including the first),
 * failing with {@code TrainNumbersExceed}. These budgets are separate from {@code retries}, which
 * counts retries after ordinary failures.
 */
public final class Attempts {

  /** How much above an out-of-memory attempt's measured peak the next reservation goes. */
  public static final double PEAK_HEADROOM = 1.2;

  private final SchedulerConfig config;

  /** Applies these budgets and growth factor. */
  public Attempts(SchedulerConfig config) {
    this.config = config;
  }

  /** Attempts that ended out of host memory. */
  public static int hostOoms(TaskRecord r) {
    if (r.history().attemptCount() == 0) {
      return 0;
    }
    return (int) ended(r.history().attempts(), Outcome.HOST_OOM);
  }

  /** Times the task ran out of GPU memory: reported by a two-stage task, or a one-stage death. */
  public static int gpuOoms(TaskRecord r) {
    if (r.history().attemptCount() == 0) {
      return 0;
    }
    int n = (int) ended(r.history().attempts(), Outcome.GPU_OOM);
    for (TaskEvent e : r.history().events()) {
      if (e instanceof TaskEvent.Reported rep && rep.outcome() == Outcome.GPU_OOM) {
        n++;
      }
    }
    return n;
  }

  /** Train calls so far over the task's life (fedflow's train_numbers). */
  public static int trains(TaskRecord r) {
    return (int) r.history().events().stream().filter(TaskEvent.Trained.class::isInstance).count();
  }

  /**
   * The host memory the next attempt reserves: the request, until an attempt runs out of host
   * memory; then the larger of that attempt's reservation grown by {@code scheduler.oom-growth} and
   * {@value #PEAK_HEADROOM} times the peak it was measured to reach, so one retry can be enough for
   * a task that needed far more than it asked for. Capped at {@code cap}, but never below the request.
   */
  public long memory(TaskRecord r, long cap) {
    long request = r.spec().resources().memoryBytes();
    Optional<Attempt> oom = lastHostOom(r);
    if (oom.isEmpty()) {
      return request;
    }
    long reserved = oom.get().placement().memoryBytes();
    BigDecimal next = BigDecimal.valueOf(reserved).multiply(BigDecimal.valueOf(config.oomGrowth()));
    OptionalLong peak = oom.get().usage().peakHostMemoryBytes();
    if (peak.isPresent()) {
      next = next.max(BigDecimal.valueOf(peak.getAsLong()).multiply(BigDecimal.valueOf(PEAK_HEADROOM)));
    }
    next = next.setScale(0, RoundingMode.CEILING);
    return next.compareTo(BigDecimal.valueOf(cap)) > 0 ? Math.max(request, cap) : Math.max(request, next.longValueExact());
  }

  /**
   * Why the task, waiting to run again after running out of host memory, must fail instead: the
   * reservation cannot grow any more ({@code cap} is all the machine can give), so another attempt
   * would end the same way.
   */
  public Optional<String> outgrown(TaskRecord r, long cap) {
    List<Attempt> all = r.history().attempts();
    if (r.state() != TaskState.READY || all.isEmpty()) {
      return Optional.empty();
    }
    Attempt last = all.get(all.size() - 1);
    boolean hostOom = last.end().map(e -> e.outcome() == Outcome.HOST_OOM).orElse(false);
    long reserved = last.placement().memoryBytes();
    if (!hostOom || reserved == 0 || memory(r, cap) > reserved) {
      return Optional.empty();
    }
    return Optional.of("ran out of host memory with " + ByteSize.format(reserved)
        + " reserved, the most this machine can give; another attempt would end the same way");
  }

  private static Optional<Attempt> lastHostOom(TaskRecord r) {
    if (r.history().attemptCount() == 0) {
      return Optional.empty();
    }
    List<Attempt> all = r.history().attempts();
    for (int i = all.size() - 1; i >= 0; i--) {
      if (all.get(i).end().map(e -> e.outcome() == Outcome.HOST_OOM).orElse(false)) {
        return Optional.of(all.get(i));
      }
    }
    return Optional.empty();
  }

  /** The GPU memory the next placement reserves: the request grown once per GPU OOM, capped. */
  public long gpuMemory(TaskRecord r, long cap) {
    return gpuMemory(r, r.spec().gpu().memoryBytes(), cap);
  }

  /**
   * The GPU memory the next placement reserves for a task that asks for {@code request} (a follower
   * asks for what it follows): the request grown once per GPU OOM, capped.
   */
  public long gpuMemory(TaskRecord r, long request, long cap) {
    return grown(request, gpuOoms(r), cap);
  }

  private long grown(long bytes, int times, long cap) {
    if (times == 0 || bytes == 0) {
      return bytes;
    }
    BigDecimal grown = BigDecimal.valueOf(bytes)
        .multiply(BigDecimal.valueOf(config.oomGrowth()).pow(times)).setScale(0, RoundingMode.CEILING);
    return grown.compareTo(BigDecimal.valueOf(cap)) > 0 ? Math.max(bytes, cap) : grown.longValueExact();
  }

  /**
   * What a two-stage task in {@code OUT_OF_MEMORY} or {@code TRAINED} should do next: resume waiting
   * for a device (a GPU OOM within its train budget), or have its process exit.
   */
  public Optional<Decision> afterReport(TaskRecord r) {
    if (r.state() == TaskState.TRAINED) {
      return Optional.of(new Decision.Exit(r.spec().id(), "finished"));
    }
    if (r.state() != TaskState.OUT_OF_MEMORY) {
      return Optional.empty();
    }
    TaskEvent.Reported last = lastReport(r).orElseThrow();
    if (last.outcome() == Outcome.GPU_OOM && trains(r) < config.trainNretry()) {
      return Optional.of(new Decision.Resume(r.spec().id()));
    }
    return Optional.of(new Decision.Exit(r.spec().id(), last.outcome() + " in " + last.stage()));
  }

  /**
   * The event that ends the running attempt of a task on a cluster, which may say more than the
   * exit code: a node failure or preemption, and a job dropped because a dependency the cluster held
   * can no longer be met, run the task again without using any budget; a memory kill is a host OOM
   * (retried with more memory within {@code load-nretry}); a time-limit kill or someone else's
   * cancellation ends the attempt as if Berth had killed it for that reason; a failure without a
   * memory kill is never taken for one, even by SIGKILL.
   */
  public TaskEvent.Ended ended(TaskRecord r, Instant at, int exitCode, Optional<Decision.Kill> killedFor,
      String stderrTail, Optional<ClusterVerdict> verdict) {
    return ended(r, at, exitCode, killedFor, stderrTail, verdict, MeasuredUsage.NONE);
  }

  /**
   * The event that ends the running attempt, as {@link #ended(TaskRecord, Instant, int, Optional,
   * String, Optional)} decides it, carrying what the attempt was measured to use; the measurement is
   * also evidence of an out-of-memory death (see {@link OomClassifier}).
   */
  public TaskEvent.Ended ended(TaskRecord r, Instant at, int exitCode, Optional<Decision.Kill> killedFor,
      String stderrTail, Optional<ClusterVerdict> verdict, MeasuredUsage usage) {
    return endedUnmeasured(r, at, exitCode, killedFor, stderrTail, verdict, usage).withUsage(usage);
  }

  private TaskEvent.Ended endedUnmeasured(TaskRecord r, Instant at, int exitCode, Optional<Decision.Kill> killedFor,
      String stderrTail, Optional<ClusterVerdict> verdict, MeasuredUsage usage) {
    if (killedFor.isPresent() || verdict.isEmpty()) {
      return ended(r, at, exitCode, killedFor, stderrTail, usage);
    }
    ClusterVerdict v = verdict.get();
    return switch (v.kind()) {
      case INFRASTRUCTURE -> new TaskEvent.Ended(at, Outcome.INTERRUPTED, exitCode,
          v.reason() + "; the task runs again without using a retry", TaskState.READY);
      case UPSTREAM_NOT_MET -> new TaskEvent.Ended(at, Outcome.INTERRUPTED, exitCode,
          v.reason() + "; the task waits for its dependencies again", TaskState.READY);
      case HOST_OOM -> oom(r, at, exitCode, Outcome.HOST_OOM, v.reason());
      case TIMED_OUT -> Retries.ending(r, at, exitCode, Optional.of(
          new Decision.Kill(r.spec().id(), Outcome.TIMED_OUT, v.reason())));
      case CANCELLED -> Retries.ending(r, at, exitCode, Optional.of(
          new Decision.Kill(r.spec().id(), Outcome.CANCELLED, v.reason())));
      case FAILED -> failedWithoutMemoryKill(r, at, exitCode, stderrTail);
    };
  }

  /**
   * A job the cluster saw fail without killing it for memory: out of GPU memory when its standard error
   * says so, else a plain failure, whatever its exit code (a SIGKILL is not taken for a memory kill).
   */
  private TaskEvent.Ended failedWithoutMemoryKill(TaskRecord r, Instant at, int exitCode, String stderrTail) {
    if (OomClassifier.classify(exitCode, stderrTail).equals(Optional.of(Outcome.GPU_OOM))) {
      return oom(r, at, exitCode, Outcome.GPU_OOM, "ran out of GPU memory (exit code " + exitCode + ")");
    }
    return Retries.retryIfAllowed(r, Endings.exited(at, exitCode));
  }

  /**
   * The event that ends the running attempt, given how its process exited. A two-stage task that
   * reported its train stage finished succeeds whatever ended its process afterwards: its result is
   * on disk. One that exits 0 before that fails, having no result. One that dies out of memory
   * during training, on the evidence {@link OomClassifier} weighs for one-stage tasks too, is charged
   * a train call ({@code scheduler.train-nretry}) rather than a load attempt or a retry; any other
   * death during training (a segfault, a signal Berth did not send) is an ordinary failure, which
   * only {@code retries} retries.
   *
   * @param killedFor why Berth killed it, if it did; when for an interruption, see {@link Endings#interrupted}
   * @param stderrTail the end of its standard error, to recognise an out-of-memory death
   */
  public TaskEvent.Ended ended(TaskRecord r, Instant at, int exitCode, Optional<Decision.Kill> killedFor,
      String stderrTail) {
    return ended(r, at, exitCode, killedFor, stderrTail, MeasuredUsage.NONE);
  }

  private TaskEvent.Ended ended(TaskRecord r, Instant at, int exitCode, Optional<Decision.Kill> killedFor,
      String stderrTail, MeasuredUsage usage) {
    if (r.state() == TaskState.TRAINED) {
      String note = exitCode == 0 ? null : "result kept; the process then exited with code " + exitCode;
      return new TaskEvent.Ended(at, Outcome.SUCCEEDED, exitCode, note, TaskState.SUCCEEDED);
    }
    if (killedFor.isPresent() && killedFor.get().outcome() == Outcome.INTERRUPTED) {
      return Endings.interrupted(ended(r, at, exitCode, Optional.empty(), stderrTail), killedFor.get().reason());
    }
    if (killedFor.isPresent()) {
      return Retries.ending(r, at, exitCode, killedFor);
    }
    if (r.state() == TaskState.OUT_OF_MEMORY) {
      TaskEvent.Reported last = lastReport(r).orElseThrow();
      String message = last.stage() + ": " + last.message();
      if (last.outcome() == Outcome.FAILED) {
        return Retries.retryIfAllowed(r, new TaskEvent.Ended(at, Outcome.FAILED, exitCode, message, TaskState.FAILED));
      }
      if (last.outcome() == Outcome.HOST_OOM) {
        return oom(r, at, exitCode, Outcome.HOST_OOM, message);
      }
      return new TaskEvent.Ended(at, Outcome.GPU_OOM, exitCode,
          "TrainNumbersExceed: ran out of GPU memory in " + trains(r) + " of " + config.trainNretry()
              + " train calls [scheduler.train-nretry]; last: " + last.message(), TaskState.FAILED);
    }
    Optional<String> stage = AttemptStage.current(r.history());
    if (stage.isPresent() && exitCode == 0) {
      return Retries.retryIfAllowed(r, Endings.withoutResult(at, r.state()));
    }
    long reserved = r.history().currentLaunch().map(l -> l.placement().memoryBytes()).orElse(0L);
    Optional<Outcome> oom = OomClassifier.classify(exitCode, stderrTail, usage, reserved);
    String what = oom.map(kind -> (kind == Outcome.GPU_OOM ? "ran out of GPU memory" : "ran out of host memory")
        + " (exit code " + exitCode + ")").orElse(null);
    TaskEvent.Ended exited = Endings.exited(at, exitCode);
    if (stage.equals(Optional.of(AttemptStage.TRAIN)) && oom.isPresent()) {
      return trainCallLost(r, at, exitCode, oom.get(), what);
    }
    if (oom.isPresent()) {
      return oom(r, at, exitCode, oom.get(), what);
    }
    return Retries.retryIfAllowed(r, exited);
  }

  /** A two-stage process ran out of memory training: the task starts again while it has train calls left. */
  private TaskEvent.Ended trainCallLost(TaskRecord r, Instant at, int exitCode, Outcome outcome, String what) {
    int used = trains(r);
    int budget = config.trainNretry();
    String call = "train call " + used + " of " + budget + " [scheduler.train-nretry]";
    if (used < budget) {
      return new TaskEvent.Ended(at, outcome, exitCode, what + " during " + call + "; the task starts again",
          TaskState.READY);
    }
    return new TaskEvent.Ended(at, outcome, exitCode, "TrainNumbersExceed: " + what + " during " + call,
        TaskState.FAILED);
  }

  /**
   * An out-of-memory ending outside a train stage: charged to {@code load-nretry} when the task ran
   * out of host memory or was loading, to {@code train-nretry} when a one-stage task ran out of GPU memory.
   */
  private TaskEvent.Ended oom(TaskRecord r, Instant at, int exitCode, Outcome kind, String message) {
    boolean host = kind == Outcome.HOST_OOM || AttemptStage.current(r.history()).isPresent();
    int used = (host ? loadOoms(r) : (int) ended(r.history().attempts(), Outcome.GPU_OOM)) + 1;
    int budget = host ? config.loadNretry() : config.trainNretry();
    if (used < budget) {
      return new TaskEvent.Ended(at, kind, exitCode,
          message + "; retry " + used + " of " + (budget - 1) + " with a bigger reservation", TaskState.READY);
    }
    String exceed = host ? "LoadNumbersExceed" : "TrainNumbersExceed";
    String key = host ? "scheduler.load-nretry" : "scheduler.train-nretry";
    return new TaskEvent.Ended(at, kind, exitCode,
        exceed + ": out of memory in " + used + " of " + budget + " attempts [" + key + "]; last: " + message,
        TaskState.FAILED);
  }

  /**
   * What {@code load-nretry} counts: attempts of a one-stage task that ended out of host memory, and
   * attempts of a two-stage task that ended out of memory in the load stage.
   */
  private static int loadOoms(TaskRecord r) {
    List<Attempt> attempts = r.history().attempts();
    List<Optional<String>> stages = AttemptStage.ofEach(r.history());
    int n = 0;
    for (int i = 0; i < attempts.size(); i++) {
      Outcome o = attempts.get(i).end().map(TaskEvent.Ended::outcome).orElse(Outcome.SUCCEEDED);
      boolean counts = stages.get(i).isEmpty() ? o == Outcome.HOST_OOM
          : stages.get(i).get().equals(AttemptStage.LOAD) && (o == Outcome.HOST_OOM || o == Outcome.GPU_OOM);
      if (counts) {
        n++;
      }
    }
    return n;
  }

  private static Optional<TaskEvent.Reported> lastReport(TaskRecord r) {
    List<TaskEvent> events = r.history().events();
    for (int i = events.size() - 1; i >= 0; i--) {
      if (events.get(i) instanceof TaskEvent.Reported rep) {
        return Optional.of(rep);
      }
    }
    return Optional.empty();
  }

  private static long ended(List<Attempt> attempts, Outcome outcome) {
    return attempts.stream().filter(a -> a.end().map(e -> e.outcome() == outcome).orElse(false)).count();
  }
}

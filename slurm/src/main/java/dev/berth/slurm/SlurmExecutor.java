package dev.berth.slurm;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.JobLimit;
import dev.berth.os.CommandRunner;
import dev.berth.os.SystemTimers;
import dev.berth.spi.Execution;
import dev.berth.spi.ExitListener;
import dev.berth.spi.Executor;
import dev.berth.spi.Launch;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import dev.berth.spi.Timers;
import dev.berth.spi.Upstream;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Runs attempts as Slurm batch jobs. A launch writes the attempt's {@link BatchScript} into its working
 * directory and submits it with {@link SbatchCommand} through the {@link CommandRunner}
 * ({@link JobSubmitter}); the returned {@link SlurmExecution} has no pid and names the job. The
 * {@link JobTracker} polls squeue for all live jobs and reports each exit once, with the program's own
 * exit code when its exit-code file is there and the codes of {@link SlurmEnding} otherwise;
 * {@link SlurmExecution#ending()} tells memory kills, time-outs, cancellations and infrastructure
 * failures apart.
 *
 * <p>Each attempt asks for what the scheduler reserved for it ({@link SlurmResources#forAttempt}), so a
 * retry after an out-of-memory ending asks for the grown reservation. An attempt with an
 * {@link Upstream} is held by Slurm with {@code --dependency} ({@link #holdsUpstream()});
 * {@link #launchAll} submits attempts of one matrix with equal resources as one job array
 * ({@link ParallelSubmissions}).
 *
 * <p>An sbatch or scancel that fails transiently (the controller unreachable, busy or rate-limiting) is
 * tried again with growing waits for {@link SlurmConfig#retryFor()} ({@link CommandRetry}); a failing
 * squeue round only costs a round. Each ended job reports what sacct measured ({@link SlurmExecution#usage()}).
 *
 * <p>Working directories and output files must be on a filesystem the nodes share. The job id of
 * each attempt is also written to {@link #jobIdFile(LaunchRequest)}, so that a later Berth can find
 * the job again with {@link #reattach}.
 */
public final class SlurmExecutor implements Executor {

  private final Function<TaskId, SlurmResources> resources;
  private final Function<TaskId, JobOptions> options;
  private final JobSubmitter submitter;
  private final JobTracker tracker;
  private final JobCanceller canceller;
  private final CommandRetry retry;
  private final ParallelSubmissions parallel;
  private final QueueRoom room;
  /** The timers of the tracker when this executor made them, to be closed with it; null when given. */
  private final SystemTimers ownTimers;
  private volatile boolean closed;

  /**
   * An executor for the run {@code runName}, polling on a thread of its own
   * ({@code berth-slurm-tracker}) by the system clock.
   *
   * @param slurm what the run asks of Slurm beyond each task's own resources
   * @param tuning how the executor drives Slurm; its first wait between polls no longer than
   *     {@code slurm}'s {@code pollMax}
   * @param resources what each task asks of Slurm; called once per launch
   */
  public SlurmExecutor(String runName, SlurmConfig slurm, SlurmTuning tuning, CommandRunner runner,
      Function<TaskId, SlurmResources> resources) {
    this(runName, slurm, tuning, runner, resources, InstantSource.system(), null);
  }

  /**
   * An executor whose tracker keeps time by {@code clock} and polls in rounds that {@code timers} run, or
   * on timers of its own when {@code timers} is null. A round waits for squeue, so the timers must not
   * be shared with anything that cannot wait that long; a fake clock drives the tracker in tests.
   */
  SlurmExecutor(String runName, SlurmConfig slurm, SlurmTuning tuning, CommandRunner runner,
      Function<TaskId, SlurmResources> resources, InstantSource clock, Timers timers) {
    this(runName, slurm, tuning, runner, resources, JobOptions.same(slurm), clock, timers);
  }

  /**
   * As above, each task's jobs asking for {@code options} of it: the run's {@code slurm} with its group's
   * over them, and its group, which names its arrays.
   */
  SlurmExecutor(String runName, SlurmConfig slurm, SlurmTuning tuning, CommandRunner runner,
      Function<TaskId, SlurmResources> resources, Function<TaskId, JobOptions> options, InstantSource clock,
      Timers timers) {
    if (runName == null || runName.isBlank()) {
      throw new IllegalArgumentException("a run name is needed to name the jobs");
    }
    if (slurm.pollMax().compareTo(tuning.pollInitial()) < 0) {
      throw new IllegalArgumentException("pollMax " + slurm.pollMax() + " must be >= pollInitial "
          + tuning.pollInitial());
    }
    Objects.requireNonNull(runner, "runner");
    this.resources = Objects.requireNonNull(resources, "resources");
    this.options = Objects.requireNonNull(options, "options");
    Objects.requireNonNull(clock, "clock");
    this.ownTimers = timers == null ? trackerTimers() : null;
    Timers used = timers == null ? ownTimers : timers;
    this.retry = new CommandRetry(runner, slurm.retryFor(), tuning.commandTimeout(), clock, used);
    this.room = new QueueRoom(
        () -> ClusterLimits.read(runner, tuning.commandTimeout(), System.getProperty("user.name")), clock);
    this.submitter = new JobSubmitter(runName, options, tuning.checkPrograms(), retry, room);
    this.tracker = new JobTracker(runner, slurm, tuning, clock, used);
    this.canceller = new JobCanceller(retry, tracker);
    this.parallel = new ParallelSubmissions(slurm, tuning, this, room::cluster);
  }

  /**
   * An executor for {@code run}, with its {@code slurm.*} settings and {@link SlurmTuning#forRun the
   * tuning it derives}, whose tasks ask for their own resources; unknown tasks get the defaults.
   */
  public static SlurmExecutor forRun(RunSpec run, CommandRunner runner) {
    SlurmConfig slurm = SlurmKeys.TABLE.of(run);
    return forRun(run, slurm, SlurmTuning.forRun(slurm, run.config().maxProcess()), runner);
  }

  /** An executor for {@code run} whose tasks ask for their own resources; unknown tasks get the defaults. */
  public static SlurmExecutor forRun(RunSpec run, SlurmConfig slurm, SlurmTuning tuning, CommandRunner runner) {
    return new SlurmExecutor(run.name(), slurm, tuning, runner, resourcesOf(run), JobOptions.of(run, slurm),
        InstantSource.system(), null);
  }

  /** What each task of {@code run} asks of Slurm; unknown tasks get the defaults. */
  static Function<TaskId, SlurmResources> resourcesOf(RunSpec run) {
    Map<TaskId, SlurmResources> byTask =
        run.tasks().stream().collect(Collectors.toUnmodifiableMap(TaskSpec::id, SlurmResources::of));
    return id -> byTask.getOrDefault(id, SlurmResources.DEFAULT);
  }

  /**
   * Why this machine cannot run a Slurm executor, for a one-line error before anything starts: the
   * Slurm commands missing from {@code path} (this process's {@code PATH}); empty when all are there.
   */
  public static Optional<String> unusableHere(String path) {
    List<String> missing = ProgramCheck.missingSlurmCommands(path);
    return missing.isEmpty() ? Optional.empty() : Optional.of("executor slurm needs sbatch, squeue, sacct and"
        + " scancel on the PATH, but " + String.join(", ", missing) + " cannot be found; run Berth where jobs can be"
        + " submitted");
  }

  /** Where the job id of {@code request}'s attempt is written after submission. */
  public static Path jobIdFile(LaunchRequest request) {
    return JobRecord.file(request.workdir(), request.attempt());
  }

  /**
   * The job id recorded for attempt {@code attempt} in the task folder {@code workdir}, e.g. {@code 23}
   * or {@code 23_1}, for {@code berth status}; empty when the attempt was never submitted.
   */
  public static Optional<String> recordedJobId(Path workdir, int attempt) {
    return JobRecord.read(JobRecord.file(workdir, attempt)).map(r -> r.job().value());
  }

  /**
   * {@inheritDoc}
   *
   * <p>Submits the attempt with {@link SlurmResources#forAttempt its reservation}. With an upstream,
   * the parents still in Slurm's hands become the job's {@code --dependency}; parents that already
   * ended are judged here. When the upstream can no longer be met (for example, a parent that had to
   * succeed already failed), nothing is submitted: the returned attempt has no job, and its exit
   * ({@link SlurmEnding#TERMINATED_EXIT}, verdict {@code UPSTREAM_NOT_MET}) is reported at once.
   *
   * @return a {@link SlurmExecution}, or the attempt that was not submitted
   * @throws LaunchException also when a parent was not started by this executor
   * @throws IllegalStateException when the executor is closed
   */
  @Override
  public Execution launch(LaunchRequest request, ExitListener onExit) throws LaunchException {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(onExit, "onExit");
    checkOpen();
    return launchHeld(request, resourcesFor(request), onExit);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Requests with the same array key, no upstream and the same resource options
   * ({@link SbatchCommand#resourceOptions}) become one job array, at least two of them, unless
   * {@link SlurmConfig#arrays()} is off; at most {@link SlurmTuning#arrayMaxRunning()} elements run at
   * once. A refused array fails each of its requests. The others are launched alone. Up to
   * {@link SlurmTuning#parallelSubmissions()} of these submissions run at once, since each sbatch
   * call waits for the controller's answer.
   *
   * @throws IllegalStateException when the executor is closed
   */
  @Override
  public List<Launch> launchAll(List<LaunchRequest> requests, Function<LaunchRequest, ExitListener> onExit) {
    Objects.requireNonNull(onExit, "onExit");
    checkOpen();
    return parallel.launchAll(requests, onExit);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Reads the job id the earlier Berth recorded in {@link #jobIdFile} and tracks that job again. A job
   * that ended meanwhile is reported as soon as squeue, sacct or the exit-code file tell how; its ending
   * is judged from Slurm's messages written after the recorded offset (files that hold only the id: from
   * the error file's present size).
   *
   * @return the job, or empty when no job was recorded for the attempt
   * @throws IllegalStateException when the executor is closed
   */
  @Override
  public Optional<Execution> reattach(LaunchRequest request, ExitListener onExit) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(onExit, "onExit");
    checkOpen();
    return JobRecord.read(jobIdFile(request)).map(record -> track(request, record, onExit));
  }

  /**
   * {@inheritDoc}
   *
   * <p>The user's {@code MaxSubmitJobs} and the cluster's {@code MaxJobCount}, read once with the first
   * call ({@link ClusterLimits}), and, for a while after sbatch refused a job for such a limit, as many
   * jobs as the run had in the cluster then ({@link QueueRoom}).
   */
  @Override
  public List<JobLimit> jobLimits() {
    return room.jobLimits();
  }

  /** True: an {@link Upstream} becomes a Slurm job dependency. */
  @Override
  public boolean holdsUpstream() {
    return true;
  }

  /**
   * Submits one attempt with the given resources, held by Slurm until {@code after} is met; the
   * request's own reservation and upstream are not consulted. With a dependency that can never be met,
   * Slurm cancels the job and its exit is reported as {@link SlurmOutcome#UPSTREAM_NOT_MET}.
   *
   * @throws LaunchException when the program is missing, a file cannot be written or sbatch refuses
   * @throws IllegalStateException when the executor is closed
   */
  public SlurmExecution launch(
      LaunchRequest request, SlurmResources resources, Optional<JobDependency> after, ExitListener onExit)
      throws LaunchException {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(resources, "resources");
    Objects.requireNonNull(after, "after");
    Objects.requireNonNull(onExit, "onExit");
    checkOpen();
    return track(request, submitter.submit(request, resources, after), onExit);
  }

  /**
   * Submits tasks as one job array; element {@code i} reports its exit to {@code listeners.get(i)}.
   *
   * @throws LaunchException as {@link #launch(LaunchRequest, SlurmResources, Optional, ExitListener)},
   *     naming the first element that cannot start; then nothing is submitted
   * @throws IllegalArgumentException when the listeners do not match the elements one to one
   */
  public List<SlurmExecution> launchArray(ArraySubmission array, List<ExitListener> listeners) throws LaunchException {
    Objects.requireNonNull(array, "array");
    if (listeners.size() != array.elements().size()) {
      throw new IllegalArgumentException(array.elements().size() + " elements need as many listeners, not "
          + listeners.size());
    }
    listeners.forEach(l -> Objects.requireNonNull(l, "listener"));
    checkOpen();
    List<JobRecord> jobs = submitter.submitArray(array);
    List<SlurmExecution> executions = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      executions.add(track(array.elements().get(i), jobs.get(i), listeners.get(i)));
    }
    return List.copyOf(executions);
  }

  /** Where the script and Slurm's own messages of a job array whose first element is {@code first} go. */
  static Path arrayFolder(LaunchRequest first) {
    return first.workdir().toAbsolutePath().resolve("berth-array." + first.attempt());
  }

  /** Why the tracker's last squeue round failed, if it did; it keeps trying. */
  public Optional<String> lastError() {
    return tracker.lastError();
  }

  /**
   * Stops the tracker and the cancel and submission threads. Jobs are not touched: they go on running
   * on the cluster, and their exits are no longer reported.
   */
  @Override
  public void close() {
    closed = true;
    retry.close();
    tracker.close();
    if (ownTimers != null) {
      ownTimers.close();
    }
    canceller.close();
    parallel.close();
  }

  /** The tracker, for tests. */
  JobTracker tracker() {
    return tracker;
  }

  /** What {@code request}'s attempt asks of Slurm. */
  SlurmResources resourcesFor(LaunchRequest request) throws LaunchException {
    try {
      return SlurmResources.forAttempt(request, resources.apply(request.task()));
    } catch (IllegalArgumentException e) {
      throw LaunchFailures.of(request, "its reservation cannot be asked of Slurm: " + e.getMessage(), e);
    }
  }

  /** What {@code request}'s jobs ask Slurm for beyond their resources: the run's settings with its group's over them. */
  SlurmConfig optionsFor(LaunchRequest request) {
    return options.apply(request.task()).slurm();
  }

  /** Submits {@code request} held for its upstream, or reports at once that it can never run. */
  Execution launchHeld(LaunchRequest request, SlurmResources asked, ExitListener onExit) throws LaunchException {
    if (request.upstream().isEmpty()) {
      return launch(request, asked, Optional.empty(), onExit);
    }
    Upstream upstream = request.upstream().get();
    List<Upstreams.Parent> parents = new ArrayList<>();
    for (Execution parent : upstream.parents()) {
      parents.add(parent(request, parent));
    }
    Upstreams.Decision decision = Upstreams.decide(parents, upstream.all(), upstream.success(), upstream.failure());
    if (decision instanceof Upstreams.NeverMet never) {
      NotSubmitted attempt = new NotSubmitted(request.task(), request.attempt(), "task " + request.task() + " attempt "
          + request.attempt() + " was not submitted to Slurm: " + never.why(), this);
      tracker.reportLater(onExit, SlurmEnding.TERMINATED_EXIT);
      return attempt;
    }
    return launch(request, asked, ((Upstreams.Submit) decision).after(), onExit);
  }

  private Upstreams.Parent parent(LaunchRequest request, Execution parent) throws LaunchException {
    if (parent instanceof SlurmExecution job && job.startedBy(this)) {
      return new Upstreams.Parent("Slurm job " + job.jobId(), Optional.of(job.jobId()),
          job.ending().map(SlurmEnding::outcome));
    }
    if (parent instanceof NotSubmitted never && never.startedBy(this)) {
      return new Upstreams.Parent(never.toString(), Optional.empty(), Optional.of(SlurmOutcome.UPSTREAM_NOT_MET));
    }
    throw LaunchFailures.of(request, "its upstream " + parent + " was not started by this Slurm executor, so Slurm"
        + " cannot hold the attempt back for it", null);
  }

  /** Tracks the job of {@code record} as {@code request}'s attempt. */
  private SlurmExecution track(LaunchRequest request, JobRecord record, ExitListener onExit) {
    Path log = record.slurmLog().orElse(request.stderr().toAbsolutePath());
    long offset = record.slurmLogOffset().orElseGet(() -> JobSubmitter.sizeOf(log));
    SlurmExecution execution = new SlurmExecution(record.job(), request.task(), request.attempt(),
        BatchScript.exitCodeFile(request), log, offset, onExit, canceller::cancel, this);
    room.submitted(execution);
    tracker.track(execution);
    return execution;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("executor is closed");
    }
  }

  private static SystemTimers trackerTimers() {
    // A round records its own failures; anything else it throws is reported as an uncaught one would be.
    return new SystemTimers("berth-slurm-tracker", error -> {
      Thread thread = Thread.currentThread();
      thread.getUncaughtExceptionHandler().uncaughtException(thread, error);
    });
  }
}

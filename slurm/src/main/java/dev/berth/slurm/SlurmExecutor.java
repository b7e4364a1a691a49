package dev.berth.slurm;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.os.CommandRunner;
import dev.berth.os.DaemonThreads;
import dev.berth.os.LaunchPreparation;
import dev.berth.spi.Execution;
import dev.berth.spi.Executor;
import dev.berth.spi.ExitListener;
import dev.berth.spi.Launch;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import dev.berth.spi.Upstream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Runs attempts as Slurm batch jobs. A launch writes the attempt's {@link BatchScript} into its working
 * directory and submits it with {@link SbatchCommand} through the {@link CommandRunner}; the returned
 * {@link SlurmExecution} has no pid and names the job. One tracker thread polls squeue for all live
 * jobs (see {@link JobTracker}) and reports each exit once, with the program's own exit code when its
 * exit-code file is there and the codes of {@link SlurmEnding} otherwise; {@link SlurmExecution#ending()}
 * tells memory kills, time-outs, cancellations and infrastructure failures apart.
 *
 * <p>Each attempt asks for what the scheduler reserved for it ({@link SlurmResources#forAttempt}), so a
 * retry after an out-of-memory ending asks for the grown reservation. An attempt with an
 * {@link Upstream} is held by Slurm with {@code --dependency} ({@link #holdsUpstream()});
 * {@link #launchAll} submits attempts of one matrix with equal resources as one job array.
 *
 * <p>Working directories and output files must be on a filesystem the nodes share. The job id of
 * each attempt is also written to {@link #jobIdFile(LaunchRequest)}, so that a later Berth can find
 * the job again with {@link #reattach}.
 */
public final class SlurmExecutor implements Executor {

  private final String runName;
  private final SlurmSettings settings;
  private final CommandRunner runner;
  private final Function<TaskId, SlurmResources> resources;
  private final JobTracker tracker;
  private final ExecutorService cancels =
      Executors.newSingleThreadExecutor(DaemonThreads.named("berth-slurm-cancel", false));
  private final ExecutorService submissions;
  private volatile boolean closed;

  /**
   * An executor for the run {@code runName}.
   *
   * @param resources what each task asks of Slurm; called once per launch
   */
  public SlurmExecutor(
      String runName, SlurmSettings settings, CommandRunner runner, Function<TaskId, SlurmResources> resources) {
    if (runName == null || runName.isBlank()) {
      throw new IllegalArgumentException("a run name is needed to name the jobs");
    }
    this.runName = runName;
    this.settings = Objects.requireNonNull(settings, "settings");
    this.runner = Objects.requireNonNull(runner, "runner");
    this.resources = Objects.requireNonNull(resources, "resources");
    this.tracker = new JobTracker(runner, settings);
    this.submissions = Executors.newFixedThreadPool(
        settings.parallelSubmissions(), DaemonThreads.named("berth-slurm-submit", true));
  }

  /** An executor for {@code run} whose tasks ask for their own resources; unknown tasks get the defaults. */
  public static SlurmExecutor forRun(RunSpec run, SlurmSettings settings, CommandRunner runner) {
    Map<TaskId, SlurmResources> byTask =
        run.tasks().stream().collect(Collectors.toUnmodifiableMap(TaskSpec::id, SlurmResources::of));
    return new SlurmExecutor(run.name(), settings, runner, id -> byTask.getOrDefault(id, SlurmResources.DEFAULT));
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
    return jobIdFile(request.workdir(), request.attempt());
  }

  /**
   * The job id recorded for attempt {@code attempt} in the task folder {@code workdir}, e.g. {@code 23}
   * or {@code 23_1}, for {@code berth status}; empty when the attempt was never submitted.
   */
  public static Optional<String> recordedJobId(Path workdir, int attempt) {
    return JobRecord.read(jobIdFile(workdir, attempt)).map(r -> r.job().value());
  }

  private static Path jobIdFile(Path workdir, int attempt) {
    return workdir.toAbsolutePath().resolve("berth-slurm-job." + attempt);
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
   * {@link SlurmSettings#arrays()} is off; at most {@link SlurmSettings#arrayMaxRunning()} elements run at
   * once. A refused array fails each of its requests. The others are launched alone. Up to
   * {@link SlurmSettings#parallelSubmissions()} of these submissions run at once, since each sbatch
   * call waits for the controller's answer.
   *
   * @throws IllegalStateException when the executor is closed
   */
  @Override
  public List<Launch> launchAll(List<LaunchRequest> requests, Function<LaunchRequest, ExitListener> onExit) {
    Objects.requireNonNull(onExit, "onExit");
    checkOpen();
    Launch[] launches = new Launch[requests.size()];
    List<SlurmResources> asked = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      try {
        asked.add(resourcesFor(requests.get(i)));
      } catch (LaunchException e) {
        asked.add(null);
        launches[i] = Launch.failed(requests.get(i), e);
      }
    }
    List<Future<?>> pending = new ArrayList<>();
    for (List<Integer> unit : ArrayPlan.units(settings, requests, asked)) {
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
    Optional<JobRecord> record = JobRecord.read(jobIdFile(request));
    if (record.isEmpty()) {
      return Optional.empty();
    }
    Path log = record.get().slurmLog().orElse(request.stderr().toAbsolutePath());
    long offset = record.get().slurmLogOffset().orElseGet(() -> size(log));
    SlurmExecution execution = new SlurmExecution(record.get().job(), request.task(), request.attempt(),
        BatchScript.exitCodeFile(request), log, offset, onExit, this::cancel, this);
    tracker.track(execution);
    return Optional.of(execution);
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
    prepare(request);
    Path script = BatchScript.scriptFile(request);
    write(request, script, script(request, () -> BatchScript.forTask(request)));
    Path log = request.stderr().toAbsolutePath();
    long offset = size(log);
    SlurmJobId job = submit(request, SbatchCommand.forTask(
        settings, runName + "." + request.task(), request, resources, after, script));
    recordJobId(request, new JobRecord(job, Optional.of(log), OptionalLong.of(offset)));
    SlurmExecution execution = new SlurmExecution(job, request.task(), request.attempt(),
        BatchScript.exitCodeFile(request), log, offset, onExit, this::cancel, this);
    tracker.track(execution);
    return execution;
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
    checkOpen();
    LaunchRequest first = array.elements().get(0);
    for (LaunchRequest element : array.elements()) {
      prepare(element);
    }
    LaunchPreparation.createFolder(array.folder(), "array folder", (reason, cause) -> failure(first, reason, cause));
    Path script = array.folder().toAbsolutePath().resolve("berth-array.sh");
    write(first, script, script(first, () -> BatchScript.forArray(array.name(), array.elements())));
    long[] offsets = new long[array.elements().size()];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = size(SbatchCommand.arrayLog(array.folder(), i));
    }
    List<String> argv;
    try {
      argv = SbatchCommand.forArray(settings, runName + "." + array.name(), array.folder(), array.elements().size(),
          array.maxRunning(), array.resources(), array.after(), script);
    } catch (IllegalArgumentException e) {
      throw failure(first, e.getMessage(), e);
    }
    SlurmJobId job = submit(first, argv);
    List<SlurmExecution> executions = new ArrayList<>();
    for (int i = 0; i < array.elements().size(); i++) {
      LaunchRequest element = array.elements().get(i);
      SlurmJobId id = SlurmJobId.element(job, i);
      Path log = SbatchCommand.arrayLog(array.folder(), i);
      recordJobId(element, new JobRecord(id, Optional.of(log), OptionalLong.of(offsets[i])));
      executions.add(new SlurmExecution(id, element.task(), element.attempt(), BatchScript.exitCodeFile(element), log,
          offsets[i], Objects.requireNonNull(listeners.get(i), "listener"), this::cancel, this));
    }
    executions.forEach(tracker::track);
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
   * Stops the tracker and the cancel thread. Jobs are not touched: they go on running on the cluster,
   * and their exits are no longer reported.
   */
  @Override
  public void close() {
    closed = true;
    tracker.close();
    cancels.shutdown();
    submissions.shutdown();
  }

  /** The tracker, for tests. */
  JobTracker tracker() {
    return tracker;
  }

  private void submitUnit(List<Integer> unit, List<LaunchRequest> requests, List<SlurmResources> asked,
      Function<LaunchRequest, ExitListener> onExit, Launch[] launches) {
    if (unit.size() > 1) {
      submitArray(unit, requests, asked.get(unit.get(0)), onExit, launches);
      return;
    }
    int i = unit.get(0);
    LaunchRequest request = requests.get(i);
    try {
      launches[i] = Launch.started(request, launchHeld(request, asked.get(i), onExit.apply(request)));
    } catch (LaunchException e) {
      launches[i] = Launch.failed(request, e);
    }
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

  private SlurmResources resourcesFor(LaunchRequest request) throws LaunchException {
    try {
      return SlurmResources.forAttempt(request, resources.apply(request.task()));
    } catch (IllegalArgumentException e) {
      throw failure(request, "its reservation cannot be asked of Slurm: " + e.getMessage(), e);
    }
  }

  private Execution launchHeld(LaunchRequest request, SlurmResources asked, ExitListener onExit)
      throws LaunchException {
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
    throw failure(request, "its upstream " + parent + " was not started by this Slurm executor, so Slurm cannot"
        + " hold the attempt back for it", null);
  }

  private void submitArray(
      List<Integer> unit, List<LaunchRequest> requests, SlurmResources asked,
      Function<LaunchRequest, ExitListener> onExit, Launch[] launches) {
    List<LaunchRequest> elements = unit.stream().map(requests::get).toList();
    List<ExitListener> listeners = elements.stream().map(onExit).toList();
    LaunchRequest first = elements.get(0);
    String key = first.arrayKey().orElseThrow();
    try {
      List<SlurmExecution> started = launchArray(new ArraySubmission(key, elements, asked,
          settings.arrayMaxRunning(), arrayFolder(first), Optional.empty()), listeners);
      for (int k = 0; k < unit.size(); k++) {
        launches[unit.get(k)] = Launch.started(elements.get(k), started.get(k));
      }
    } catch (LaunchException | IllegalArgumentException e) {
      String why = withoutPrefix(elements, e.getMessage());
      for (int k = 0; k < unit.size(); k++) {
        launches[unit.get(k)] = Launch.failed(elements.get(k), failure(elements.get(k), "its job array '" + key
            + "' of " + unit.size() + " tasks was not submitted: " + why, e));
      }
    }
  }

  /** The reason of an array's failure without the "cannot start" prefix, naming the element it was about. */
  private static String withoutPrefix(List<LaunchRequest> elements, String message) {
    for (int k = 0; k < elements.size(); k++) {
      String prefix = prefix(elements.get(k));
      if (message.startsWith(prefix)) {
        String reason = message.substring(prefix.length());
        return k == 0 ? reason : "task " + elements.get(k).task() + ": " + reason;
      }
    }
    return message;
  }

  private void cancel(SlurmExecution execution) {
    Runnable scancel = () -> {
      try {
        runner.run(List.of("scancel", execution.jobId().value()), settings.commandTimeout());
      } catch (IOException e) {
        // the job runs on; the tracker still reports its end, and the caller may try again
      }
      tracker.soon();
    };
    try {
      cancels.execute(scancel);
    } catch (RejectedExecutionException closedMeanwhile) {
      scancel.run();
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("executor is closed");
    }
  }

  private void prepare(LaunchRequest request) throws LaunchException {
    LaunchPreparation.createFolders(request, (reason, cause) -> failure(request, reason, cause));
    if (settings.checkPrograms()) {
      Optional<String> problem = ProgramCheck.problem(request);
      if (problem.isPresent()) {
        throw failure(request, problem.get(), null);
      }
    }
    try {
      Files.deleteIfExists(BatchScript.exitCodeFile(request));
    } catch (IOException e) {
      throw failure(request, "cannot remove an old exit-code file: " + e.getMessage(), e);
    }
  }

  private SlurmJobId submit(LaunchRequest request, List<String> argv) throws LaunchException {
    CommandRunner.Result result;
    try {
      result = runner.run(argv, settings.commandTimeout());
    } catch (IOException e) {
      throw failure(request, "cannot run sbatch: " + e.getMessage(), e);
    }
    SbatchOutput output = SbatchOutput.parse(result);
    if (!output.accepted()) {
      throw failure(request, "sbatch refused the job: " + output.error().orElse("no reason given"), null);
    }
    return output.jobId().orElseThrow();
  }

  private static String script(LaunchRequest request, Supplier<String> text) throws LaunchException {
    try {
      return text.get();
    } catch (IllegalArgumentException e) {
      throw failure(request, e.getMessage(), e);
    }
  }

  private static void write(LaunchRequest request, Path file, String text) throws LaunchException {
    try {
      Files.writeString(file, text);
    } catch (IOException e) {
      throw failure(request, "cannot write the batch script " + file + ": " + e.getMessage(), e);
    }
  }

  private static void recordJobId(LaunchRequest request, JobRecord record) {
    try {
      record.write(jobIdFile(request));
    } catch (IOException e) {
      // only needed to find the job again after a restart; the job itself is fine
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException absent) {
      return 0;
    }
  }

  private static LaunchException failure(LaunchRequest request, String reason, Exception cause) {
    return new LaunchException(prefix(request) + reason, cause);
  }

  private static String prefix(LaunchRequest request) {
    return "cannot start '" + request.command().get(0) + "' for task " + request.task() + " attempt "
        + request.attempt() + " on Slurm: ";
  }
}

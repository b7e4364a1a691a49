package dev.berth.slurm;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.runtime.gpu.CommandRunner;
import dev.berth.runtime.time.DaemonThreads;
import dev.berth.spi.ExitListener;
import dev.berth.spi.Executor;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * <p>Working directories and output files must be on a filesystem the nodes share. The job id of
 * each attempt is also written to {@link #jobIdFile(LaunchRequest)}, so a later Berth can find it.
 */
public final class SlurmExecutor implements Executor {

  private final String runName;
  private final SlurmSettings settings;
  private final CommandRunner runner;
  private final Function<TaskId, SlurmResources> resources;
  private final JobTracker tracker;
  private final ExecutorService cancels =
      Executors.newSingleThreadExecutor(DaemonThreads.named("berth-slurm-cancel", false));
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
  }

  /** An executor for {@code run} whose tasks ask for their own resources; unknown tasks get the defaults. */
  public static SlurmExecutor forRun(RunSpec run, SlurmSettings settings, CommandRunner runner) {
    Map<TaskId, SlurmResources> byTask =
        run.tasks().stream().collect(Collectors.toUnmodifiableMap(TaskSpec::id, SlurmResources::of));
    return new SlurmExecutor(run.name(), settings, runner, id -> byTask.getOrDefault(id, SlurmResources.DEFAULT));
  }

  /** Where the job id of {@code request}'s attempt is written after submission. */
  public static Path jobIdFile(LaunchRequest request) {
    return request.workdir().toAbsolutePath().resolve("berth-slurm-job." + request.attempt());
  }

  /**
   * {@inheritDoc}
   *
   * <p>Submits the attempt with the task's resources and no Slurm dependency.
   *
   * @throws IllegalStateException when the executor is closed
   */
  @Override
  public SlurmExecution launch(LaunchRequest request, ExitListener onExit) throws LaunchException {
    Objects.requireNonNull(request, "request");
    return launch(request, resources.apply(request.task()), Optional.empty(), onExit);
  }

  /**
   * Submits one attempt with the given resources, held by Slurm until {@code after} is met. With a
   * dependency that can never be met, Slurm cancels the job and its exit is reported as
   * {@link SlurmOutcome#CANCELLED}.
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
    long offset = size(request.stderr());
    SlurmJobId job = submit(request, SbatchCommand.forTask(
        settings, runName + "." + request.task(), request, resources, after, script));
    recordJobId(request, job);
    SlurmExecution execution = new SlurmExecution(job, request.task(), request.attempt(),
        BatchScript.exitCodeFile(request), request.stderr().toAbsolutePath(), offset, onExit, this::cancel);
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
    createFolder(first, array.folder(), "array folder");
    Path script = array.folder().toAbsolutePath().resolve("berth-array.sh");
    write(first, script, script(first, () -> BatchScript.forArray(array.name(), array.elements())));
    SlurmJobId job = submit(first, SbatchCommand.forArray(settings, runName + "." + array.name(), array.folder(),
        array.elements().size(), array.maxRunning(), array.resources(), array.after(), script));
    List<SlurmExecution> executions = new ArrayList<>();
    for (int i = 0; i < array.elements().size(); i++) {
      LaunchRequest element = array.elements().get(i);
      SlurmJobId id = SlurmJobId.element(job, i);
      recordJobId(element, id);
      Path log = SbatchCommand.arrayLog(array.folder(), i);
      executions.add(new SlurmExecution(id, element.task(), element.attempt(), BatchScript.exitCodeFile(element), log,
          size(log), Objects.requireNonNull(listeners.get(i), "listener"), this::cancel));
    }
    executions.forEach(tracker::track);
    return List.copyOf(executions);
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
  }

  /** The tracker, for tests. */
  JobTracker tracker() {
    return tracker;
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
    createFolder(request, request.workdir(), "working directory");
    createFolder(request, request.stdout().toAbsolutePath().getParent(), "folder of the output file");
    createFolder(request, request.stderr().toAbsolutePath().getParent(), "folder of the error file");
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

  private static void recordJobId(LaunchRequest request, SlurmJobId job) {
    try {
      Files.writeString(jobIdFile(request), job.value() + "\n");
    } catch (IOException e) {
      // only needed to find the job again after a restart; the job itself is fine
    }
  }

  private static void createFolder(LaunchRequest request, Path folder, String what) throws LaunchException {
    if (folder == null) {
      return;
    }
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw failure(request, "could not create " + what + " " + folder + ": " + e.getMessage(), e);
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
    return new LaunchException("cannot start '" + request.command().get(0) + "' for task " + request.task()
        + " attempt " + request.attempt() + " on Slurm: " + reason, cause);
  }
}

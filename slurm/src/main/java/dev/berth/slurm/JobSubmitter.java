package dev.berth.slurm;

import dev.berth.core.model.TaskId;
import dev.berth.os.LaunchPreparation;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Submits attempts to Slurm, alone or as a job array: prepares each attempt's folders and checks its
 * program, writes the {@link BatchScript}, runs sbatch ({@link SbatchCommand}) and records each job in
 * its {@link JobRecord} file, so that a later Berth can find it again. It does not track what it
 * submitted. Thread-safe: submissions may run at once.
 */
final class JobSubmitter {

  private final String runName;
  private final Function<TaskId, JobOptions> options;
  private final boolean checkPrograms;
  private final CommandRetry retry;
  private final QueueRoom room;

  /**
   * Submits through {@code retry}, which tries an sbatch that failed transiently again, and tells
   * {@code room} what the cluster took and what it refused for a job-count limit.
   *
   * @param options what each task's jobs ask Slurm for beyond their resources
   * @param checkPrograms whether a launch fails at once when its program is not found on this machine
   */
  JobSubmitter(String runName, Function<TaskId, JobOptions> options, boolean checkPrograms, CommandRetry retry,
      QueueRoom room) {
    this.runName = runName;
    this.options = options;
    this.checkPrograms = checkPrograms;
    this.retry = retry;
    this.room = room;
  }

  /**
   * Submits one attempt with {@code resources}, held by Slurm until {@code after} is met.
   *
   * @return the job, with the file where Slurm writes its messages about it and that file's size before
   * @throws LaunchException when the program is missing, a file cannot be written or sbatch refuses
   */
  JobRecord submit(LaunchRequest request, SlurmResources resources, Optional<JobDependency> after)
      throws LaunchException {
    prepare(request);
    SlurmConfig slurm = options.apply(request.task()).slurm();
    Path script = BatchScript.scriptFile(request);
    write(request, script, script(request, () -> BatchScript.forTask(request, slurm.jobSignal())));
    Path log = request.stderr().toAbsolutePath();
    long offset = sizeOf(log);
    SlurmJobId job = sbatch(request, SbatchCommand.forTask(
        slurm, runName + "." + request.task(), request, resources, after, script));
    return recorded(request, new JobRecord(job, Optional.of(log), OptionalLong.of(offset)));
  }

  /**
   * Submits {@code array} as one job array.
   *
   * @return the job of each element, in order
   * @throws LaunchException as {@link #submit}, naming the first element that cannot start; then nothing is
   *     submitted
   */
  List<JobRecord> submitArray(ArraySubmission array) throws LaunchException {
    LaunchRequest first = array.elements().get(0);
    for (LaunchRequest element : array.elements()) {
      prepare(element);
    }
    LaunchPreparation.createFolder(array.folder(), "array folder",
        (reason, cause) -> LaunchFailures.of(first, reason, cause));
    JobOptions jobs = options.apply(first.task());
    SlurmConfig slurm = jobs.slurm();
    Path script = array.folder().toAbsolutePath().resolve("berth-array.sh");
    write(first, script, script(first, () -> BatchScript.forArray(array.name(), array.elements(), slurm.jobSignal())));
    write(first, SbatchCommand.taskList(array.folder()), BatchScript.taskList(array.elements()));
    long[] offsets = new long[array.elements().size()];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = sizeOf(SbatchCommand.arrayLog(array.folder(), i));
    }
    List<String> argv;
    try {
      // <run>.<group>, as squeue shows it; the comment says where each element's task is named
      argv = SbatchCommand.forArray(slurm, runName + "." + jobs.group().orElse(array.name()), array.folder(),
          array.elements().size(),
          array.maxRunning(), array.resources(), array.after(), script);
    } catch (IllegalArgumentException e) {
      throw LaunchFailures.of(first, e.getMessage(), e);
    }
    SlurmJobId job = sbatch(first, argv);
    List<JobRecord> records = new ArrayList<>();
    for (int i = 0; i < array.elements().size(); i++) {
      Path log = SbatchCommand.arrayLog(array.folder(), i);
      records.add(recorded(array.elements().get(i),
          new JobRecord(SlurmJobId.element(job, i), Optional.of(log), OptionalLong.of(offsets[i]))));
    }
    return List.copyOf(records);
  }

  /** The size of {@code file}, 0 when it does not exist. */
  static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException absent) {
      return 0;
    }
  }

  private void prepare(LaunchRequest request) throws LaunchException {
    LaunchPreparation.createFolders(request, (reason, cause) -> LaunchFailures.of(request, reason, cause));
    if (checkPrograms) {
      Optional<String> problem = ProgramCheck.problem(request);
      if (problem.isPresent()) {
        throw LaunchFailures.of(request, problem.get(), null);
      }
    }
    try {
      Files.deleteIfExists(BatchScript.exitCodeFile(request));
    } catch (IOException e) {
      throw LaunchFailures.of(request, "cannot remove an old exit-code file: " + e.getMessage(), e);
    }
  }

  private SlurmJobId sbatch(LaunchRequest request, List<String> argv) throws LaunchException {
    Optional<String> full = room.full();
    if (full.isPresent()) {
      // Refused moments ago, and no job of the run ended since: asking again would be refused again.
      throw LaunchFailures.later(request, full.get());
    }
    CommandRetry.Answer answer;
    try {
      answer = retry.run(argv, SlurmFailures::transientSubmission);
    } catch (IOException e) {
      throw LaunchFailures.of(request, "cannot run sbatch: " + e.getMessage(), e);
    }
    SbatchOutput output = SbatchOutput.parse(answer.result());
    if (!output.accepted()) {
      String why = output.error().orElse("no reason given");
      if (SlurmFailures.queueFull(why)) {
        room.refused("sbatch: " + why);
        throw LaunchFailures.later(request, "sbatch refused the job: " + why);
      }
      throw LaunchFailures.of(request, "sbatch refused the job: " + why + answer.retriesNote(), null);
    }
    room.taken();
    return output.jobId().orElseThrow();
  }

  private static String script(LaunchRequest request, Supplier<String> text) throws LaunchException {
    try {
      return text.get();
    } catch (IllegalArgumentException e) {
      throw LaunchFailures.of(request, e.getMessage(), e);
    }
  }

  private static void write(LaunchRequest request, Path file, String text) throws LaunchException {
    try {
      Files.writeString(file, text);
    } catch (IOException e) {
      throw LaunchFailures.of(request, "cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /** Writes {@code record} to the attempt's job-id file; returns it. */
  private static JobRecord recorded(LaunchRequest request, JobRecord record) {
    try {
      record.write(JobRecord.file(request.workdir(), request.attempt()));
    } catch (IOException e) {
      // only needed to find the job again after a restart; the job itself is fine
    }
    return record;
  }
}

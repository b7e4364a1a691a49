package dev.berth.slurm;

import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds sbatch's argument vector (never a shell string) for one attempt or one array. Every option
 * is one {@code --name=value} word, so no value can be read as another option. Pure.
 *
 * <p>Resources: {@code --mem} in MiB rounded up (left out when the task sets no memory, so the
 * cluster's default applies), {@code --cpus-per-task} as whole cores rounded up (at least 1),
 * {@code --gres=gpu:N} for whole GPUs or {@link GpuMemoryGres#gresFor} for a GPU-memory share, and
 * {@code --time} in minutes rounded up from the task's timeout (else from {@link SlurmConfig#time()}).
 * The environment is inherited ({@code --export=ALL}); the task's own variables are set by the
 * {@link BatchScript}, where values with commas or newlines need no escaping.
 */
public final class SbatchCommand {

  private SbatchCommand() {}

  /**
   * The sbatch call for one attempt: named {@code jobName}, in the request's working directory,
   * appending to its output files, running {@code script}.
   */
  public static List<String> forTask(
      SlurmConfig slurm, String jobName, LaunchRequest request, SlurmResources resources,
      Optional<JobDependency> after, Path script) {
    List<String> argv = start(jobName);
    argv.add("--chdir=" + request.workdir().toAbsolutePath());
    argv.add("--output=" + filePattern(request.stdout()));
    argv.add("--error=" + filePattern(request.stderr()));
    argv.add("--open-mode=append");
    return finish(argv, slurm, resources, after, script);
  }

  /**
   * The sbatch call for an array of {@code count} elements, at most {@code maxRunning} at a time (0
   * for no limit). Slurm's own messages about element {@code i} (a memory kill, a cancellation) go to
   * {@link #arrayLog(Path, int)}; the script sends the programs' output to each task's files.
   */
  public static List<String> forArray(
      SlurmConfig slurm, String jobName, Path folder, int count, int maxRunning, SlurmResources resources,
      Optional<JobDependency> after, Path script) {
    if (count < 1 || maxRunning < 0) {
      throw new IllegalArgumentException("an array needs count >= 1 and maxRunning >= 0 but had " + count + " and "
          + maxRunning);
    }
    List<String> argv = start(jobName);
    // squeue -o %k shows it: where to read which task each element runs
    argv.add("--comment=task of each element: " + taskList(folder).toAbsolutePath());
    argv.add("--chdir=" + folder.toAbsolutePath());
    argv.add("--output=" + filePattern(folder.resolve("slurm-")) + "%a.log");
    argv.add("--open-mode=append");
    argv.add("--array=0-" + (count - 1) + (maxRunning > 0 ? "%" + maxRunning : ""));
    return finish(argv, slurm, resources, after, script);
  }

  /**
   * The file in an array's folder that names the task of each element, one {@code <index> <task id>}
   * line each, as {@link BatchScript#taskList} writes it.
   */
  public static Path taskList(Path folder) {
    return folder.toAbsolutePath().resolve("tasks");
  }

  /** Where Slurm writes its own messages about element {@code index} of an array submitted with {@link #forArray}. */
  public static Path arrayLog(Path folder, int index) {
    return folder.toAbsolutePath().resolve("slurm-" + index + ".log");
  }

  /** {@code duration} in whole minutes, rounded up, at least 1: Slurm's time limits are minutes. */
  public static long minutes(Duration duration) {
    long seconds = duration.getSeconds() + (duration.getNano() > 0 ? 1 : 0);
    return Math.max(1, (seconds + 59) / 60);
  }

  /**
   * The options that ask for {@code resources}: {@code --mem}, {@code --cpus-per-task}, {@code --gres}
   * and {@code --time}, as {@link #forTask} and {@link #forArray} add them. Two attempts with equal
   * options ask Slurm for the same, so they may share a job array.
   */
  public static List<String> resourceOptions(SlurmConfig slurm, SlurmResources resources) {
    List<String> options = new ArrayList<>();
    if (resources.memoryBytes() > 0) {
      options.add("--mem=" + ceilDiv(resources.memoryBytes(), 1L << 20) + "M");
    }
    options.add("--cpus-per-task=" + Math.max(1, ceilDiv(resources.milliCpus(), 1000)));
    if (resources.gpu().wholeDevices() > 0) {
      options.add("--gres=gpu:" + resources.gpu().wholeDevices());
    } else if (resources.gpu().memoryBytes() > 0) {
      options.add("--gres=" + slurm.shareGres().gresFor(resources.gpu().memoryBytes()));
    }
    Optional<Duration> time = resources.timeout().or(() -> Optional.of(slurm.time()).filter(t -> !t.isZero()));
    time.ifPresent(t -> options.add("--time=" + minutes(t)));
    return List.copyOf(options);
  }

  /**
   * What a job asks of the cluster, as {@link #forTask} and {@link #forArray} add it before the dependency:
   * {@code --partition}, {@code --account}, {@code --qos}, {@code --constraint}, {@code --requeue},
   * {@code --signal} and the {@link #resourceOptions}. Two attempts with equal options and equal extra
   * arguments (which come last) are the same request to Slurm, so they may share a job array.
   */
  public static List<String> jobOptions(SlurmConfig slurm, SlurmResources resources) {
    List<String> options = new ArrayList<>();
    addIfSet(options, "--partition=", slurm.partition());
    addIfSet(options, "--account=", slurm.account());
    addIfSet(options, "--qos=", slurm.qos());
    addIfSet(options, "--constraint=", slurm.constraint());
    if (slurm.requeue()) {
      options.add("--requeue");
    }
    slurm.jobSignal().ifPresent(signal -> options.add(signal.option()));
    options.addAll(resourceOptions(slurm, resources));
    return List.copyOf(options);
  }

  private static List<String> start(String jobName) {
    if (jobName.isBlank() || jobName.chars().anyMatch(c -> c < ' ')) {
      throw new IllegalArgumentException("job name '" + jobName + "' must be non-blank printable text");
    }
    List<String> argv = new ArrayList<>();
    argv.add("sbatch");
    argv.add("--parsable");
    argv.add("--job-name=" + jobName);
    return argv;
  }

  private static List<String> finish(
      List<String> argv, SlurmConfig slurm, SlurmResources resources, Optional<JobDependency> after,
      Path script) {
    argv.add("--export=ALL");
    argv.addAll(jobOptions(slurm, resources));
    after.ifPresent(d -> {
      argv.add("--dependency=" + d.toSlurm());
      // Without this a dependant of a failed parent waits forever on clusters that do not set
      // DependencyParameters=kill_invalid_depend.
      argv.add("--kill-on-invalid-dep=yes");
    });
    argv.addAll(slurm.extraArgs());
    argv.add(script.toAbsolutePath().toString());
    return List.copyOf(argv);
  }

  private static void addIfSet(List<String> argv, String option, String value) {
    if (!value.isEmpty()) {
      argv.add(option + value);
    }
  }

  /** An absolute file name for --output/--error, with {@code %} doubled so Slurm does not expand it. */
  private static String filePattern(Path file) {
    return file.toAbsolutePath().toString().replace("%", "%%");
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }
}

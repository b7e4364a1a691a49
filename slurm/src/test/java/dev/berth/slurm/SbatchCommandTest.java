package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.Dependency;
import dev.berth.core.model.GpuRequest;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SbatchCommandTest {

  private static final Path RUN = Path.of("/shared/runs/sweep");
  private static final Path TASK_DIR = RUN.resolve("train").resolve("lr-0.1");
  private static final LaunchRequest REQUEST = new LaunchRequest(TaskId.of("lr-0.1"), 2, List.of("python3", "train.py"),
      new TreeMap<>(), TASK_DIR, TASK_DIR.resolve("stdout.log"), TASK_DIR.resolve("stderr.log"));
  private static final Path SCRIPT = TASK_DIR.resolve("berth-slurm.2.sh");
  private static final long MIB = 1L << 20;

  @Test
  void aTaskBecomesOneWordPerOption() {
    TaskSpec task = TaskSpec.builder("lr-0.1", "train").command("python3", "train.py")
        .memoryBytes(1536 * MIB).cpus(2).timeout(Duration.ofMinutes(90)).build();

    assertThat(SbatchCommand.forTask(SlurmConfig.DEFAULTS, "sweep.lr-0.1", REQUEST, SlurmResources.of(task),
        Optional.empty(), SCRIPT)).containsExactly(
        "sbatch", "--parsable", "--job-name=sweep.lr-0.1",
        "--chdir=/shared/runs/sweep/train/lr-0.1",
        "--output=/shared/runs/sweep/train/lr-0.1/stdout.log",
        "--error=/shared/runs/sweep/train/lr-0.1/stderr.log",
        "--open-mode=append", "--export=ALL", "--mem=1536M", "--cpus-per-task=2", "--time=90",
        "/shared/runs/sweep/train/lr-0.1/berth-slurm.2.sh");
  }

  @Test
  void theResourceOptionsAreTheOnesTheCommandAsksFor() {
    SlurmResources resources = new SlurmResources(1536 * MIB, 2500, GpuRequest.share(8L << 30),
        Optional.of(Duration.ofMinutes(90)));
    SlurmConfig gpumem = SlurmConfig.builder().set(SlurmKeys.GPU_MEMORY_GRES, "gpumem:1MiB").build();

    assertThat(SbatchCommand.resourceOptions(gpumem, resources))
        .containsExactly("--mem=1536M", "--cpus-per-task=3", "--gres=gpumem:8192", "--time=90");
    assertThat(options(gpumem, resources)).containsSubsequence(SbatchCommand.resourceOptions(gpumem, resources));
  }

  @Test
  void memoryIsInMibRoundedUpAndLeftOutWhenNotSet() {
    assertThat(options(new SlurmResources(1, 1000, GpuRequest.NONE, Optional.empty()))).contains("--mem=1M");
    assertThat(options(new SlurmResources(MIB + 1, 1000, GpuRequest.NONE, Optional.empty()))).contains("--mem=2M");
    assertThat(options(SlurmResources.DEFAULT)).noneMatch(o -> o.startsWith("--mem"));
  }

  @Test
  void coresAreRoundedUpToAtLeastOne() {
    assertThat(options(new SlurmResources(0, 0, GpuRequest.NONE, Optional.empty()))).contains("--cpus-per-task=1");
    assertThat(options(new SlurmResources(0, 500, GpuRequest.NONE, Optional.empty()))).contains("--cpus-per-task=1");
    assertThat(options(new SlurmResources(0, 2500, GpuRequest.NONE, Optional.empty()))).contains("--cpus-per-task=3");
  }

  @Test
  void wholeGpusAreAGpuGres() {
    assertThat(options(new SlurmResources(0, 1000, GpuRequest.whole(2), Optional.empty()))).contains("--gres=gpu:2");
  }

  @Test
  void aGpuMemoryShareFollowsTheConfiguredMapping() {
    SlurmResources share = new SlurmResources(0, 1000, GpuRequest.share(8L << 30), Optional.empty());

    assertThat(options(SlurmConfig.DEFAULTS, share)).contains("--gres=gpu:1");
    assertThat(options(SlurmConfig.builder().set(SlurmKeys.GPU_MEMORY_GRES, "shard").build(), share))
        .contains("--gres=shard:1");
    assertThat(options(SlurmConfig.builder().set(SlurmKeys.GPU_MEMORY_GRES, "gpumem:1MiB").build(), share))
        .contains("--gres=gpumem:8192");
  }

  @Test
  void theTimeLimitIsTheTimeoutInMinutesRoundedUpOrTheDefault() {
    assertThat(SbatchCommand.minutes(Duration.ofSeconds(60))).isEqualTo(1);
    assertThat(SbatchCommand.minutes(Duration.ofSeconds(61))).isEqualTo(2);
    assertThat(SbatchCommand.minutes(Duration.ofMillis(1))).isEqualTo(1);
    assertThat(SbatchCommand.minutes(Duration.ofHours(2))).isEqualTo(120);
    SlurmConfig withDefault = SlurmConfig.builder().set(SlurmKeys.TIME, Duration.ofHours(4)).build();
    assertThat(options(withDefault, SlurmResources.DEFAULT)).contains("--time=240");
    assertThat(options(withDefault, new SlurmResources(0, 1000, GpuRequest.NONE, Optional.of(Duration.ofSeconds(30)))))
        .contains("--time=1").doesNotContain("--time=240");
    assertThat(options(SlurmResources.DEFAULT)).noneMatch(o -> o.startsWith("--time"));
  }

  @Test
  void siteOptionsComeFirstAndExtraArgumentsLastBeforeTheScript() {
    SlurmConfig site = SlurmConfig.builder().set(SlurmKeys.PARTITION, "gpu").set(SlurmKeys.ACCOUNT, "ml")
        .set(SlurmKeys.QOS, "short")
        .set(SlurmKeys.EXTRA_ARGS, List.of("--constraint=a100", "--exclusive")).build();
    List<String> argv = options(site, SlurmResources.DEFAULT);

    assertThat(argv).containsSubsequence("--export=ALL", "--partition=gpu", "--account=ml", "--qos=short",
        "--cpus-per-task=1", "--constraint=a100", "--exclusive", SCRIPT.toString());
    assertThat(argv.get(argv.size() - 1)).isEqualTo(SCRIPT.toString());
  }

  @Test
  void dependenciesUseSlurmsTypesAndKillWhatCanNeverRun() {
    Map<TaskId, SlurmJobId> jobs = Map.of(TaskId.of("a"), SlurmJobId.of("1"), TaskId.of("b"), SlurmJobId.of("2_3"));
    List<TaskId> ab = List.of(TaskId.of("a"), TaskId.of("b"));

    assertThat(dependency(new Dependency(ab, true, true, false), jobs)).isEqualTo("afterok:1:2_3");
    assertThat(dependency(new Dependency(ab, true, false, true), jobs)).isEqualTo("afternotok:1:2_3");
    assertThat(dependency(new Dependency(ab, true, true, true), jobs)).isEqualTo("afterany:1:2_3");
    assertThat(dependency(new Dependency(ab, false, true, false), jobs)).isEqualTo("afterok:1?afterok:2_3");
    assertThat(SbatchCommand.forTask(SlurmConfig.DEFAULTS, "sweep.x", REQUEST, SlurmResources.DEFAULT,
        Optional.of(JobDependency.of(Dependency.allSucceeded(ab), jobs)), SCRIPT))
        .containsSubsequence("--dependency=afterok:1:2_3", "--kill-on-invalid-dep=yes");
  }

  @Test
  void aParentWithoutAJobCannotBeHandedToSlurm() {
    Dependency edge = Dependency.allSucceeded(List.of(TaskId.of("a"), TaskId.of("prep")));

    assertThatThrownBy(() -> JobDependency.of(edge, Map.of(TaskId.of("a"), SlurmJobId.of("1"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[prep] have no Slurm job");
  }

  @Test
  void aConstraintRequeueAndASignalBeforeTheLimitAreOneWordEachBeforeTheResources() {
    SlurmConfig slurm = SlurmConfig.builder().set(SlurmKeys.CONSTRAINT, "a100|h100").set(SlurmKeys.REQUEUE, true)
        .set(SlurmKeys.SIGNAL, "TERM@90s").build();

    assertThat(SbatchCommand.jobOptions(slurm, SlurmResources.DEFAULT))
        .containsExactly("--constraint=a100|h100", "--requeue", "--signal=B:TERM@90", "--cpus-per-task=1");
    assertThat(SbatchCommand.jobOptions(SlurmConfig.DEFAULTS, SlurmResources.DEFAULT))
        .containsExactly("--cpus-per-task=1");
  }

  @Test
  void anArrayRunsItsElementsWithALimitAndKeepsSlurmsMessagesPerElement() {
    Path folder = RUN.resolve(".berth-arrays").resolve("train-1");

    assertThat(SbatchCommand.forArray(SlurmConfig.DEFAULTS, "sweep.train", folder, 4, 2, SlurmResources.DEFAULT,
        Optional.empty(), folder.resolve("berth-array.sh"))).containsExactly(
        "sbatch", "--parsable", "--job-name=sweep.train",
        "--comment=task of each element: /shared/runs/sweep/.berth-arrays/train-1/tasks",
        "--chdir=/shared/runs/sweep/.berth-arrays/train-1",
        "--output=/shared/runs/sweep/.berth-arrays/train-1/slurm-%a.log",
        "--open-mode=append", "--array=0-3%2", "--export=ALL", "--cpus-per-task=1",
        "/shared/runs/sweep/.berth-arrays/train-1/berth-array.sh");
    assertThat(SbatchCommand.forArray(SlurmConfig.DEFAULTS, "s.t", folder, 1, 0, SlurmResources.DEFAULT,
        Optional.empty(), folder.resolve("a.sh"))).contains("--array=0-0");
    assertThat(SbatchCommand.arrayLog(folder, 3)).isEqualTo(folder.resolve("slurm-3.log"));
  }

  @Test
  void aPercentSignInAPathIsNotTakenForAFilePattern() {
    Path odd = Path.of("/shared/100%/t");
    LaunchRequest request = new LaunchRequest(TaskId.of("t"), 1, List.of("true"), new TreeMap<>(), odd,
        odd.resolve("stdout.log"), odd.resolve("stderr.log"));

    assertThat(SbatchCommand.forTask(SlurmConfig.DEFAULTS, "r.t", request, SlurmResources.DEFAULT, Optional.empty(),
        odd.resolve("s.sh"))).contains("--chdir=/shared/100%/t", "--output=/shared/100%%/t/stdout.log");
  }

  @Test
  void badJobNamesAndSettingsAreRejected() {
    assertThatThrownBy(() -> SbatchCommand.forTask(SlurmConfig.DEFAULTS, "a\nb", REQUEST, SlurmResources.DEFAULT,
        Optional.empty(), SCRIPT)).hasMessageContaining("printable");
    assertThatThrownBy(() -> SlurmConfig.builder().set(SlurmKeys.TIME, Duration.ofMinutes(-1)).build())
        .hasMessageContaining("slurm.time must be >= 0");
    assertThatThrownBy(() -> SlurmConfig.builder()
        .set(SlurmKeys.PARTITION, "a b").build()).hasMessageContaining("one word");
  }

  @Test
  void theTaskFolderRootIsTheRunsWorkdirUnlessSet() {
    assertThat(SlurmConfig.DEFAULTS.taskFolderRoot(RUN, "sweep")).isEqualTo(RUN);
    assertThat(SlurmConfig.builder().set(SlurmKeys.WORKDIR_ROOT, "/scratch/me").build().taskFolderRoot(RUN, "sweep"))
        .isEqualTo(Path.of("/scratch/me/sweep"));
    assertThat(SlurmConfig.builder()
        .set(SlurmKeys.PARTITION, "p").build().toBuilder().build().partition()).isEqualTo("p");
  }

  private static List<String> options(SlurmResources resources) {
    return options(SlurmConfig.DEFAULTS, resources);
  }

  private static List<String> options(SlurmConfig slurm, SlurmResources resources) {
    return SbatchCommand.forTask(slurm, "sweep.lr-0.1", REQUEST, resources, Optional.empty(), SCRIPT);
  }

  private static String dependency(Dependency edge, Map<TaskId, SlurmJobId> jobs) {
    return JobDependency.of(edge, jobs).toSlurm();
  }
}

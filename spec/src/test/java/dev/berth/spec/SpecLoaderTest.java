package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.runtime.exec.LocalKeys;
import dev.berth.slurm.SlurmConfig;
import dev.berth.slurm.SlurmKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecLoaderTest {

  static final String QUICKSTART = """
      name: quickstart
      workdir: berth-out/quickstart
      config:
        scheduler: {max-process: 20, max-waiting: 10, interval: 1s, default-memory: 2GB}
        utilization-limit: {cpu: 0.8, memory: 0.8}
        remain-limit: {memory: 4GB}
      groups:
        - name: prepare
          memory: 512MiB
          tasks:
            - id: make-data
              command: [python3, make_data.py, --out, data]
              env: {SEED: "1"}
        - name: train
          tasks:
            - id: "train-{lr}-{seed}"
              matrix: {lr: [0.1, 0.01], seed: [1, 2]}
              command: [python3, train.py, --lr, "{lr}", --seed, "{seed}"]
              memory: 1GiB
              cpus: 1
      """;

  @TempDir Path dir;

  private RunSpec load(String spec) throws SpecException {
    return SpecLoader.load(SpecFiles.write(dir, "spec.yaml", spec), null, List.of());
  }

  private TaskSpec task(RunSpec run, String id) {
    return run.tasks().stream().filter(t -> t.id().value().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void quickstartExampleLoadsIntoTheCoreModel() throws SpecException {
    RunSpec run = load(QUICKSTART);

    assertThat(run.name()).isEqualTo("quickstart");
    assertThat(run.workdir()).isEqualTo("berth-out/quickstart");
    assertThat(run.groups()).extracting(GroupSpec::name).containsExactly("prepare", "train");
    assertThat(run.tasks()).extracting(t -> t.id().value())
        .containsExactly("make-data", "train-0.1-1", "train-0.1-2", "train-0.01-1", "train-0.01-2");

    TaskSpec makeData = task(run, "make-data");
    assertThat(makeData.group()).isEqualTo("prepare");
    assertThat(makeData.command()).containsExactly("python3", "make_data.py", "--out", "data");
    assertThat(makeData.env()).containsExactly(entry("SEED", "1"));
    assertThat(makeData.resources().memoryBytes()).isEqualTo(512L * 1024 * 1024);
    assertThat(makeData.resources().cpus()).isEqualTo(1.0);
    assertThat(makeData.priority()).isZero();
    assertThat(makeData.params()).isEmpty();

    TaskSpec train = task(run, "train-0.01-2");
    assertThat(train.group()).isEqualTo("train");
    assertThat(train.command()).containsExactly("python3", "train.py", "--lr", "0.01", "--seed", "2");
    assertThat(train.resources().memoryBytes()).isEqualTo(1L << 30);
    assertThat(train.params()).containsExactly(entry("lr", "0.01"), entry("seed", "2"));
  }

  @Test
  void quickstartConfigBlockSetsTheSchedulerConfig() throws SpecException {
    SchedulerConfig config = load(QUICKSTART).config();

    assertThat(config.maxProcess()).isEqualTo(20);
    assertThat(config.maxWaiting()).isEqualTo(10);
    assertThat(config.interval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(config.defaultMemoryBytes()).isEqualTo(2_000_000_000L);
    assertThat(config.cpuUtilizationLimit()).isEqualTo(0.8);
    assertThat(config.memoryUtilizationLimit()).isEqualTo(0.8);
    assertThat(config.remainMemoryBytes()).isEqualTo(4_000_000_000L);
  }

  @Test
  void workdirDefaultsToBerthOutSlashName() throws SpecException {
    RunSpec run = load(SpecFiles.oneGroup("- {id: a, command: [true]}"));

    assertThat(run.workdir()).isEqualTo("berth-out/run");
  }

  @Test
  void workdirIsKeptAsGiven() throws SpecException {
    RunSpec run = load("workdir: ../elsewhere/out\n" + SpecFiles.oneGroup("- {id: a, command: [true]}"));

    assertThat(run.workdir()).isEqualTo("../elsewhere/out");
  }

  @Test
  void withoutAnyConfigTheDefaultsApply() throws SpecException {
    RunSpec run = load(SpecFiles.oneGroup("- {id: a, command: [true]}"));

    assertThat(run.config()).isEqualTo(SchedulerConfig.DEFAULTS);
  }

  @Test
  void taskMemoryBeatsGroupMemoryBeatsConfigDefault() throws SpecException {
    RunSpec run = load("""
        name: run
        config: {scheduler: {default-memory: 3GB}}
        groups:
          - name: with-estimate
            memory: 1GB
            tasks:
              - {id: own, command: [x], memory: 2GB}
              - {id: inherited, command: [x]}
          - name: without-estimate
            tasks:
              - {id: configured, command: [x]}
        """);

    assertThat(task(run, "own").resources().memoryBytes()).isEqualTo(2_000_000_000L);
    assertThat(task(run, "inherited").resources().memoryBytes()).isEqualTo(1_000_000_000L);
    assertThat(task(run, "configured").resources().memoryBytes()).isEqualTo(3_000_000_000L);
  }

  @Test
  void memoryAcceptsBytesAndEveryUnitForm() throws SpecException {
    RunSpec run = load(SpecFiles.oneGroup("""
        - {id: bytes, command: [x], memory: 1048576}
        - {id: binary, command: [x], memory: 1.5GiB}
        - {id: decimal-spaced, command: [x], memory: "456 MB"}
        - {id: zero, command: [x], memory: 0}
        """));

    assertThat(task(run, "bytes").resources().memoryBytes()).isEqualTo(1_048_576L);
    assertThat(task(run, "binary").resources().memoryBytes()).isEqualTo(1_610_612_736L);
    assertThat(task(run, "decimal-spaced").resources().memoryBytes()).isEqualTo(456_000_000L);
    assertThat(task(run, "zero").resources().memoryBytes()).isZero();
  }

  @Test
  void cpusMayBeFractionalOrZeroAndDefaultToOne() throws SpecException {
    RunSpec run = load("""
        name: run
        groups:
          - name: g
            cpus: 0.5
            tasks:
              - {id: half, command: [x]}
              - {id: none, command: [x], cpus: 0}
              - {id: two, command: [x], cpus: 2}
          - name: h
            tasks:
              - {id: default, command: [x]}
        """);

    assertThat(task(run, "half").resources().milliCpus()).isEqualTo(500);
    assertThat(task(run, "none").resources().milliCpus()).isZero();
    assertThat(task(run, "two").resources().milliCpus()).isEqualTo(2000);
    assertThat(task(run, "default").resources().milliCpus()).isEqualTo(1000);
  }

  @Test
  void envFromGroupAndTaskMergeWithTheTaskWinningPerVariable() throws SpecException {
    RunSpec run = load("""
        name: run
        groups:
          - name: g
            env: {SHARED: group, OVERRIDDEN: group}
            tasks:
              - id: a
                command: [x]
                env: {OVERRIDDEN: task, OWN: 7}
              - {id: b, command: [x]}
        """);

    assertThat(task(run, "a").env())
        .containsExactly(entry("OVERRIDDEN", "task"), entry("OWN", "7"), entry("SHARED", "group"));
    assertThat(task(run, "b").env()).containsExactly(entry("OVERRIDDEN", "group"), entry("SHARED", "group"));
  }

  @Test
  void priorityComesFromTaskThenGroupThenZero() throws SpecException {
    RunSpec run = load("""
        name: run
        groups:
          - name: g
            priority: 5
            tasks:
              - {id: urgent, command: [x], priority: 10}
              - {id: lowered, command: [x], priority: -3}
              - {id: inherited, command: [x]}
          - name: h
            tasks:
              - {id: plain, command: [x]}
        """);

    assertThat(task(run, "urgent").priority()).isEqualTo(10);
    assertThat(task(run, "lowered").priority()).isEqualTo(-3);
    assertThat(task(run, "inherited").priority()).isEqualTo(5);
    assertThat(task(run, "plain").priority()).isZero();
  }

  @Test
  void enforceMemoryComesFromTaskThenGroupThenTheConfig() throws SpecException {
    RunSpec run = SpecLoader.load(SpecFiles.write(dir, "spec.yaml", """
        name: run
        config:
          scheduler: {enforce-memory: true}
        groups:
          - name: g
            enforce-memory: true
            tasks:
              - {id: inherited, command: [x]}
              - {id: released, command: [x], enforce-memory: false}
          - name: h
            tasks:
              - {id: limited, command: [x], enforce-memory: true}
              - {id: plain, command: [x]}
        """), null, List.of(), SpecFiles.ADAPTERS);

    assertThat(task(run, "inherited").find(TaskKeys.ENFORCE_MEMORY)).contains(true);
    assertThat(task(run, "released").find(TaskKeys.ENFORCE_MEMORY)).contains(false);
    assertThat(task(run, "limited").find(TaskKeys.ENFORCE_MEMORY)).contains(true);
    assertThat(task(run, "plain").find(TaskKeys.ENFORCE_MEMORY)).as("left to scheduler.enforce-memory").isEmpty();
    boolean configured = LocalKeys.TABLE.of(run).enforceMemory();
    assertThat(configured).as("the local executor's scheduler.enforce-memory").isTrue();
    assertThat(task(run, "released").enforcesMemory(configured)).isFalse();
    assertThat(task(run, "plain").enforcesMemory(configured)).isTrue();
  }

  @Test
  void aGroupsSlurmOptionsGoOverTheRunsForItsTasksAndATasksOverItsGroups() throws SpecException {
    RunSpec run = SpecLoader.load(SpecFiles.write(dir, "spec.yaml", """
        name: run
        executor: slurm
        slurm: {partition: cpu, account: lab, time: 1h}
        groups:
          - name: prep
            tasks:
              - {id: clean, command: [x]}
          - name: train
            slurm: {partition: gpu, time: 4h, constraint: a100, extra-args: [--exclusive], requeue: true, signal: 5m}
            tasks:
              - {id: fit, command: [x]}
              - {id: long, command: [x], slurm: {qos: long}}
        """), null, List.of(), SpecFiles.ADAPTERS);
    SlurmConfig slurm = SlurmKeys.TABLE.of(run);

    assertThat(SlurmKeys.forTask(slurm, task(run, "clean"))).isEqualTo(slurm);
    SlurmConfig fit = SlurmKeys.forTask(slurm, task(run, "fit"));
    assertThat(fit.partition()).isEqualTo("gpu");
    assertThat(fit.account()).isEqualTo("lab");
    assertThat(fit.time()).isEqualTo(java.time.Duration.ofHours(4));
    assertThat(fit.constraint()).isEqualTo("a100");
    assertThat(fit.extraArgs()).containsExactly("--exclusive");
    assertThat(fit.requeue()).isTrue();
    assertThat(fit.signal()).isEqualTo("5m");
    SlurmConfig longer = SlurmKeys.forTask(slurm, task(run, "long"));
    assertThat(longer.qos()).isEqualTo("long");
    assertThat(longer.partition()).as("its group's").isEqualTo("gpu");
  }

  @Test
  void commandNumbersAndBooleansBecomeTheirText() throws SpecException {
    RunSpec run = load(SpecFiles.oneGroup("- {id: a, command: [prog, 3, 0.50, true, 1e3, '']}"));

    assertThat(task(run, "a").command()).containsExactly("prog", "3", "0.50", "true", "1e3", "");
  }

  @Test
  void quotedNumbersAreAcceptedWhereNumbersAreExpected() throws SpecException {
    RunSpec run = load(SpecFiles.oneGroup("- {id: a, command: [x], cpus: \"2\", priority: \"4\"}"));

    assertThat(task(run, "a").resources().cpus()).isEqualTo(2.0);
    assertThat(task(run, "a").priority()).isEqualTo(4);
  }

  @Test
  void groupsKeepTheOrderTheyAreWrittenIn() throws SpecException {
    RunSpec run = load("""
        name: run
        groups:
          - {name: c, tasks: [{id: c1, command: [x]}]}
          - {name: a, tasks: [{id: a1, command: [x]}]}
          - {name: b, tasks: [{id: b1, command: [x]}]}
        """);

    assertThat(run.groups()).extracting(GroupSpec::name).containsExactly("c", "a", "b");
  }
}

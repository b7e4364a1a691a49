package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuildersTest {

  private static final SchedulerConfig CONFIG = SchedulerConfig.builder()
      .set(SchedulerKeys.DEFAULT_MEMORY, 123L).build();

  @Test
  void aNulInsideAnArgumentOrAnEnvironmentValueIsRefusedWhenTheTaskIsBuilt() {
    assertThatThrownBy(() -> Tasks.command("t", "echo", "a\0b").toSpec("g", CONFIG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("task t: argument 1 holds a NUL character");
    assertThatThrownBy(() -> Groups.builder("g").env("SEED", "1\0").task(Tasks.command("t", "run")).build(CONFIG))
        .hasMessageStartingWith("task t: environment variable SEED holds a NUL character");
  }

  @Test
  void aTaskKeyBeatsItsGroupsWhichBeatsTheConfiguration() {
    GroupSpec g = Groups.builder("g").memory("1MiB").cpus(2).priority(3).env("A", "group").env("B", "group")
        .task(Tasks.command("own", "run").memoryBytes(7).cpus(1).env("B", "task"))
        .task(Tasks.command("inherits", "run"))
        .build(CONFIG);
    TaskSpec own = g.tasks().get(0);
    TaskSpec inherits = g.tasks().get(1);

    assertThat(own.resources().memoryBytes()).isEqualTo(7);
    assertThat(own.resources().cpus()).isEqualTo(1.0);
    assertThat(own.env()).containsEntry("A", "group").containsEntry("B", "task");
    assertThat(inherits.resources().memoryBytes()).isEqualTo(1L << 20);
    assertThat(inherits.resources().cpus()).isEqualTo(2.0);
    assertThat(inherits.priority()).isEqualTo(3);
    assertThat(Tasks.command("bare", "run").toSpec("g", CONFIG).resources().memoryBytes()).isEqualTo(123);
  }

  @Test
  void enforceMemoryComesFromTheTaskThenItsGroupAndIsOtherwiseLeftToTheConfiguration() {
    GroupSpec g = Groups.builder("g").enforceMemory(true)
        .task(Tasks.command("released", "run").enforceMemory(false))
        .task(Tasks.command("inherits", "run"))
        .build(CONFIG);

    assertThat(g.tasks()).extracting(t -> t.find(TaskKeys.ENFORCE_MEMORY))
        .containsExactly(java.util.Optional.of(false), java.util.Optional.of(true));
    assertThat(Tasks.command("bare", "run").toSpec("g", CONFIG).find(TaskKeys.ENFORCE_MEMORY)).isEmpty();
  }

  @Test
  void aGpuTaskWithoutGpuMemoryGetsTheConfiguredDefault() {
    SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.DEFAULT_CUDA_MEMORY, 5_000L).build();

    assertThat(Tasks.command("t", "run").device("cuda").toSpec("g", config).gpu().memoryBytes()).isEqualTo(5_000);
    assertThat(Tasks.command("t", "run").device("cuda:1").gpuMemory("1KiB").toSpec("g", config).gpu().memoryBytes())
        .isEqualTo(1024);
    assertThat(Tasks.command("t", "run").toSpec("g", config).gpu().wantsGpu()).isFalse();
  }

  @Test
  void aMatrixExpandsInKeyOrderWithTheLastKeyFastest() {
    Map<String, List<?>> m = new LinkedHashMap<>();
    m.put("lr", List.of(0.1, 1.0E-4));
    m.put("bs", List.of(16, 32));
    GroupSpec g = Groups.builder("sweep").matrix(Tasks.template("t-{lr}-{bs}", "fit", "{lr}", "{{bs}}"), m).build(CONFIG);

    assertThat(g.tasks()).extracting(t -> t.id().value()).containsExactly("t-0.1-16", "t-0.1-32", "t-0.0001-16", "t-0.0001-32");
    assertThat(g.tasks().get(2).command()).containsExactly("fit", "0.0001", "{bs}");
    assertThat(g.tasks().get(2).params()).containsEntry("lr", "0.0001").containsEntry("bs", "16");
  }

  @Test
  void dependenciesResolveIdsGlobsAndGroupsLeavingOutTheTaskItself() {
    GroupSpec g = Groups.builder("all")
        .task(Tasks.command("a-1", "run"))
        .task(Tasks.command("a-2", "run").after("a-*"))
        .task(Tasks.command("b", "run").after(DependsOn.on("group:all").any()))
        .build(CONFIG);

    assertThat(g.tasks().get(1).after()).contains(Dependency.allSucceeded(List.of(TaskId.of("a-1"))));
    assertThat(g.tasks().get(2).after().orElseThrow())
        .isEqualTo(new Dependency(List.of(TaskId.of("a-1"), TaskId.of("a-2")), false, true, false));
  }

  @Test
  void brokenValuesAreRefusedWhereTheyAreWrittenWithTheRule() {
    TaskBuilder t = Tasks.command("t", "run");

    assertThatThrownBy(() -> Tasks.command("no spaces", "run")).hasMessageContaining("must match [A-Za-z0-9._+=@,-]+");
    assertThatThrownBy(() -> Tasks.command("t")).hasMessageContaining("the command must name a program");
    assertThatThrownBy(() -> t.memoryBytes(-1)).hasMessage("memory must be >= 0 bytes but was -1");
    assertThatThrownBy(() -> t.memory("lots")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> t.cpus(-0.5)).hasMessageContaining("cpus must be a number >= 0");
    assertThatThrownBy(() -> t.retries(-1)).hasMessage("retries must be a whole number >= 0 but was -1");
    assertThatThrownBy(() -> t.retryBackoff(0.5)).hasMessageContaining("retry-backoff must be a number from 1");
    assertThatThrownBy(() -> t.timeout(Duration.ZERO)).hasMessageContaining("timeout must be longer than 0");
    assertThatThrownBy(() -> t.device("gpu0")).hasMessageContaining("use cpu, cuda (any GPU) or cuda:N");
    assertThatThrownBy(() -> t.targets(List.of())).hasMessageContaining("at least one GPU index");
    assertThatThrownBy(() -> t.placement("closest")).hasMessageContaining("unknown GPU placement policy 'closest'");
    assertThatThrownBy(() -> t.env("1X", "v")).hasMessageContaining("not a valid environment variable name");
    assertThatThrownBy(() -> new DependsOn(List.of("a"), true, false, false))
        .hasMessageContaining("can never be met");
    assertThatThrownBy(() -> Groups.builder("bad name")).hasMessageContaining("must match [A-Za-z0-9._-]+");
    assertThatThrownBy(() -> Groups.builder("g").build(CONFIG)).hasMessage("group g has no tasks; add at least one");
    assertThatThrownBy(() -> Tasks.command("t", "run").gpus(2).device("cuda:1").toSpec("g", CONFIG))
        .hasMessageContaining("task t").hasMessageContaining("cannot ask for 2 gpus");
  }

  @Test
  void aRunRefusesRepeatedIdsAndDependenciesOnNoTask() {
    assertThatThrownBy(() -> Runs.named("r")
        .group(Groups.of("a", Tasks.command("x", "run")))
        .group(Groups.of("b", Tasks.command("x", "run")))
        .build())
        .hasMessage("task id 'x' is used in group a and in group b; task ids must be unique within a run");
    assertThatThrownBy(() -> Runs.named("r").group(Groups.of("a", Tasks.command("x", "run").after("y"))).build())
        .hasMessageContaining("'y' names no task");
    assertThatThrownBy(() -> Runs.named("r")
        .group(Groups.of("a", Tasks.command("x", "run").after("y")))
        .group(Groups.of("b", Tasks.command("y", "run")))
        .build())
        .hasMessageContaining("groups run one after another");
  }

  @Test
  void groupsCopyTheirTasksSoLaterChangesDoNotLeakIn() {
    TaskBuilder t = Tasks.command("t", "run").memoryBytes(1);
    GroupBuilder g = Groups.of("g", t);
    t.memoryBytes(2).command(List.of("other"));

    TaskSpec spec = g.build(CONFIG).tasks().get(0);
    assertThat(spec.resources().memoryBytes()).isEqualTo(1);
    assertThat(spec.command()).containsExactly("run");
  }

  @Test
  void specsBuiltElsewhereMoveIntoTheGroupTheyAreAddedTo() {
    TaskSpec t = Tasks.command("t", "run").toSpec("elsewhere", CONFIG);

    GroupSpec g = Groups.ofSpecs("here", t);

    assertThat(g.tasks().get(0).group()).isEqualTo("here");
    assertThat(g.tasks().get(0).command()).isEqualTo(t.command());
  }
}

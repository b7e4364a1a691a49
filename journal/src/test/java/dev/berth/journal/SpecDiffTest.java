package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.settings.Setting;
import dev.berth.runtime.exec.LocalKeys;
import dev.berth.runtime.exec.LocalSettings;
import dev.berth.testkit.TaskSpecs;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SpecDiffTest {

  private static TaskSpec train(String id, long memoryGiB) {
    return TaskSpec.builder(id, "train").command("python3", "train.py").memoryBytes(memoryGiB << 30).build();
  }

  private static RunSpec run(SchedulerConfig config, List<TaskSpec> train, TaskSpec... eval) {
    TaskSpecs.RunBuilder b = TaskSpecs.run("r").config(config).group("train", train);
    if (eval.length > 0) {
      b.group("eval", eval);
    }
    return b.build();
  }

  @Test
  void equalSpecsHaveNoDifferences() {
    RunSpec spec = run(SchedulerConfig.DEFAULTS, List.of(train("train-0.1-1", 1)));

    assertThat(SpecDiff.between(spec, spec)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void aSpecThatWentThroughTheJournalHasNoDifferences(long seed) {
    RunSpec spec = new RandomSpecs(seed).run();

    assertThat(SpecDiff.between(SpecCodec.decode(SpecCodec.encode(spec, RandomSpecs.ADAPTERS), RandomSpecs.ADAPTERS), spec, RandomSpecs.ADAPTERS)).isEmpty();
  }

  @Test
  void aJournalsFormerDefaultPlacementBesideTodaysDefaultIsNoEditButAnyOtherPlacementChangeIs() {
    SchedulerConfig bestFit = SchedulerConfig.DEFAULTS.toBuilder()
        .set(SchedulerKeys.PLACEMENT, PlacementPolicyName.BEST_FIT).build();
    SchedulerConfig firstFit = SchedulerConfig.DEFAULTS.toBuilder()
        .set(SchedulerKeys.PLACEMENT, PlacementPolicyName.FIRST_FIT).build();
    List<TaskSpec> tasks = List.of(train("train-0.1-1", 1));

    assertThat(SpecDiff.between(run(bestFit, tasks), run(SchedulerConfig.DEFAULTS, tasks))).isEmpty();
    assertThat(SpecDiff.between(run(bestFit, tasks), run(firstFit, tasks)))
        .containsExactly("config.scheduler.placement: best-fit -> first-fit");
    assertThat(SpecDiff.between(run(SchedulerConfig.DEFAULTS, tasks), run(bestFit, tasks)))
        .containsExactly("config.scheduler.placement: spread -> best-fit");
  }

  @Test
  void aTaskWrittenBeforeTemplatesIsTheSameTaskWithItsTemplate() {
    TaskSpec before = TaskSpec.builder("train-1", "train").command("x").build();
    TaskSpec now = before.toBuilder().template("train-{i}").build();

    assertThat(SpecDiff.between(run(SchedulerConfig.DEFAULTS, List.of(before)),
        run(SchedulerConfig.DEFAULTS, List.of(now)))).isEmpty();
  }

  @Test
  void changesAreNamedByTheirPathWithUnits() {
    SchedulerConfig four = SchedulerConfig.builder().set(SchedulerKeys.MAX_PROCESS, 4).build();
    SchedulerConfig eight = SchedulerConfig.builder().set(SchedulerKeys.MAX_PROCESS, 8)
        .set(SchedulerKeys.INTERVAL, Duration.ofMillis(500)).build();
    RunSpec stored = run(four, List.of(train("train-0.1-1", 1), train("train-0.1-2", 1)));
    RunSpec now = run(eight, List.of(train("train-0.1-1", 2)), TaskSpec.builder("eval", "eval").command("e").build());

    assertThat(SpecDiff.between(stored, now)).containsExactly(
        "config.scheduler.interval: 1.0s -> 500ms",
        "config.scheduler.max-process: 4 -> 8",
        "group added: eval",
        "task added: eval",
        "task removed: train-0.1-2",
        "groups[train].tasks[train-0.1-1].memory: 1 GiB -> 2 GiB");
  }

  @Test
  void environmentCommandsDependenciesAndOptionalValuesAreCompared() {
    TaskSpec a = TaskSpec.builder("a", "train").command("x").build();
    TaskSpec before = TaskSpec.builder("b", "train").command("python3", "old.py").env(java.util.Map.of("SEED", "1"))
        .build();
    TaskSpec after = TaskSpec.builder("b", "train").command("python3", "new.py").env(java.util.Map.of("LR", "0.1"))
        .after(Dependency.allSucceeded(List.of(TaskId.of("a")))).timeout(Duration.ofMinutes(10)).build();

    List<String> diff = SpecDiff.between(
        run(SchedulerConfig.DEFAULTS, List.of(a, before)), run(SchedulerConfig.DEFAULTS, List.of(a, after)));

    assertThat(diff).containsExactly(
        "groups[train].tasks[b].after: (none) -> {\"all\":true,\"failure\":false,\"success\":true,\"tasks\":[\"a\"]}",
        "groups[train].tasks[b].command: [python3, old.py] -> [python3, new.py]",
        "groups[train].tasks[b].env.LR: (none) -> 0.1",
        "groups[train].tasks[b].env.SEED: 1 -> (none)",
        "groups[train].tasks[b].timeout: (none) -> 10m00s");
  }

  @Test
  void movedTasksAndReorderedGroupsAndTasksAreReported() {
    TaskSpec a = TaskSpec.builder("a", "g1").command("x").build();
    TaskSpec b = TaskSpec.builder("b", "g1").command("x").build();
    TaskSpec c = TaskSpec.builder("c", "g2").command("x").build();
    RunSpec stored = TaskSpecs.run("r").group("g1", a, b).group("g2", c).build();
    RunSpec now = TaskSpecs.run("r").group("g2", c, TaskSpec.builder("a", "g2").command("x").build()).group("g1", b)
        .build();

    assertThat(SpecDiff.between(stored, now)).containsExactly(
        "group order: [g1, g2] -> [g2, g1]",
        "task moved: a (group g1 -> g2)");
  }

  @Test
  void sizesThatLookTheSameWithUnitsAreShownInBytes() {
    RunSpec stored = run(SchedulerConfig.DEFAULTS, List.of(TaskSpec.builder("t", "train").command("x")
        .memoryBytes(1L << 30).build()));
    RunSpec now = run(SchedulerConfig.DEFAULTS, List.of(TaskSpec.builder("t", "train").command("x")
        .memoryBytes((1L << 30) + 1).build()));

    assertThat(SpecDiff.between(stored, now))
        .containsExactly("groups[train].tasks[t].memory: 1073741824 -> 1073741825");
  }

  @Test
  void aChangeOfTheLocalExecutorsKeysIsNamedAtItsSchedulerPathWithUnits() {
    RunSpec stored = run(SchedulerConfig.DEFAULTS, List.of(train("train-0.1-1", 1)));
    RunSpec now = LocalKeys.TABLE.into(stored, LocalSettings.builder().enforceMemory(true).logCapBytes(2L << 20).build());

    assertThat(SpecDiff.between(stored, now, RandomSpecs.ADAPTERS)).containsExactly(
        "config.scheduler.enforce-memory: (none) -> true",
        "config.scheduler.log-cap: (none) -> 2 MiB");
  }

  @Test
  void everyPathWithAUnitNamesAFieldOfTheJson() {
    Set<String> paths = new TreeSet<>();
    collect("", SpecCodec.toJson(new RandomSpecs(1).run(), RandomSpecs.ADAPTERS), paths);

    assertThat(paths).containsAll(SpecDiff.paths(Setting.MEMORY_SIZE, RandomSpecs.ADAPTERS))
        .containsAll(SpecDiff.paths(Setting.DURATION, RandomSpecs.ADAPTERS));
  }

  private static void collect(String path, JsonNode json, Set<String> paths) {
    if (json.isObject()) {
      json.properties().forEach(e -> {
        String p = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
        paths.add(p);
        collect(p, e.getValue(), paths);
      });
    } else if (json.isArray()) {
      json.forEach(i -> collect(path, i, paths));
    }
  }
}

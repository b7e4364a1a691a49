package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskSpec;
import dev.berth.testkit.TaskSpecs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecChangesTest {

  private static TaskSpec fit(String lr, int seed, long memoryGiB) {
    return TaskSpec.builder("fit-" + lr + "-" + seed, "fit").command("python3", "fit.py", lr, "" + seed)
        .params(Map.of("lr", lr, "seed", "" + seed)).memoryBytes(memoryGiB << 30).build();
  }

  private static List<TaskSpec> seeds(String lr, int seeds, long memoryGiB) {
    List<TaskSpec> tasks = new ArrayList<>();
    for (int seed = 1; seed <= seeds; seed++) {
      tasks.add(fit(lr, seed, memoryGiB));
    }
    return tasks;
  }

  private static RunSpec run(String name, List<TaskSpec> fit) {
    return TaskSpecs.run(name).group("fit", fit).build();
  }

  @Test
  void addingOneValueToASeventyFiveSeedMatrixReadsAsOneCountAndAFewIds() {
    List<TaskSpec> both = new ArrayList<>(seeds("0.1", 75, 1));
    both.addAll(seeds("1.0", 75, 1));

    SpecChanges changes = SpecChanges.between(run("r", seeds("0.1", 75, 1)), run("r", both), List.of());

    assertThat(changes.tasksOnly()).isTrue();
    assertThat(changes.added()).isEqualTo(75);
    assertThat(changes.text()).isEqualTo("""
        75 tasks added (lr=1.0), 0 removed, 0 changed
          added to fit (75): fit-1.0-1, fit-1.0-2, fit-1.0-3 … and 72 more""");
  }

  @Test
  void aSettingChangedInManyTasksIsOneLineNamingTheChangeAndAFewOfThem() {
    List<TaskSpec> grown = new ArrayList<>(seeds("0.1", 5, 2));
    grown.add(fit("0.1", 6, 2));
    List<TaskSpec> kept = seeds("0.1", 5, 1);
    kept.add(fit("0.1", 7, 1));

    SpecChanges changes = SpecChanges.between(run("r", kept), run("r", grown), List.of());

    assertThat(changes.tasksOnly()).isFalse();
    assertThat(changes.text()).isEqualTo("""
        1 task added (seed=6), 1 removed, 5 changed
          added to fit (1): fit-0.1-6
          removed from fit (1): fit-0.1-7
          fit: memory: 1 GiB -> 2 GiB in 5 tasks: fit-0.1-1, fit-0.1-2, fit-0.1-3 … and 2 more""");
  }

  @Test
  void aChangeOfTheRunAloneStaysOneLine() {
    SpecChanges changes = SpecChanges.between(run("first", seeds("0.1", 2, 1)), run("second", seeds("0.1", 2, 1)),
        List.of());

    assertThat(changes.tasksOnly()).isFalse();
    assertThat(changes.text()).isEqualTo("name: first -> second; workdir: runs/first -> runs/second");
  }

  @Test
  void tasksInAnotherOrderOnlyGrowTheSpec() {
    List<TaskSpec> reordered = new ArrayList<>(List.of(fit("0.1", 1, 1), fit("0.1", 9, 1), fit("0.1", 2, 1)));

    SpecChanges changes = SpecChanges.between(run("r", seeds("0.1", 2, 1)), run("r", reordered), List.of());

    assertThat(changes.tasksOnly()).isTrue();
    assertThat(changes.headline()).isEqualTo("1 task added (seed=9), 0 removed, 0 changed");
  }
}

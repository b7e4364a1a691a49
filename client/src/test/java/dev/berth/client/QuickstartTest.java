package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.report.Objective;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ten-line quickstart of docs/java-api.md, as written there except for the folder it runs in and its
 * CPU utilization limit: the test is about the quickstart, not about waiting for a loaded machine.
 */
class QuickstartTest {

  @TempDir Path dir;

  @Test
  void theJavaQuickstartRunsTheQuickstartSweepAndFindsTheBestSetting() throws Exception {
    Path examples = Path.of("..", "examples").toAbsolutePath().normalize();
    TuneResult result;
    // --- docs/java-api.md, with examples/ located from this module, a temporary workdir and no CPU utilization limit
    String q = examples.resolve("quickstart") + "/";      // tasks run in their own folders: absolute paths
    try (Berth berth = Berth.local(BerthOptions.builder().name("quickstart").set("scheduler.max-process", 4).workdir(dir)
        .set("utilization-limit.cpu", 1.0).build())) {
      berth.execute(Groups.of("prepare",
          Tasks.command("make-data", "python3", q + "make_data.py", "--out", "data").memory("256MiB")));
      Map<String, List<?>> grid = new LinkedHashMap<>();
      grid.put("lr", List.of(0.1, 0.01));
      grid.put("seed", List.of(1, 2));
      TuneResult sweep = berth.tune(grid, Tasks.template("train-{lr}-{seed}", "python3", q + "train.py",
          "--lr", "{lr}", "--seed", "{seed}").memory("256MiB"), Objective.max("val_acc"));
      System.out.println("best: " + sweep.bestOption().orElseThrow() + "\n" + sweep.render());
      result = sweep;
    }
    // ---

    assertThat(result.trials()).hasSize(4).allSatisfy(t -> assertThat(t.task().succeeded()).isTrue());
    assertThat(result.best()).isPresent();
    assertThat(result.bestOption().orElseThrow()).containsOnlyKeys("lr", "seed");
    assertThat(dir.resolve("prepare").resolve("make-data").resolve("data").resolve("train.csv")).exists();
  }
}

package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.report.TaskStatus;
import dev.berth.report.Objective;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TuneTest {

  @TempDir Path dir;

  /**
   * A trial that writes {@code {"score": 100 - (x-3)^2 - (y-2)^2}}, best at x=3, y=2; the trial x=4,
   * y=3 writes no score and x=1, y=1 fails.
   */
  private static TaskTemplate quadratic() {
    return Tasks.template("trial-{x}-{y}", "sh", "-c",
        "if [ {x} = 1 ] && [ {y} = 1 ]; then exit 3; fi; "
            + "if [ {x} = 4 ] && [ {y} = 3 ]; then echo '{\"note\": \"no score\"}' > result.json; exit 0; fi; "
            + "echo \"{\\\"score\\\": $((100 - ({x}-3)*({x}-3) - ({y}-2)*({y}-2)))}\" > result.json")
        .cpus(0);
  }

  private static Map<String, List<?>> grid() {
    Map<String, List<?>> grid = new LinkedHashMap<>();
    grid.put("x", List.of(1, 2, 3, 4));
    grid.put("y", List.of(1, 2, 3));
    return grid;
  }

  @Test
  void tunePicksTheCombinationWithTheBestObjective() throws Exception {
    try (Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build())) {
      TuneResult result = berth.tune(grid(), quadratic(), Objective.max("score"));

      assertThat(result.bestOption()).contains(Map.of("x", 3, "y", 2));
      assertThat(result.best()).hasValueSatisfying(t -> {
        assertThat(t.score()).isEqualTo(100);
        assertThat(t.task().id()).isEqualTo("trial-3-2");
      });
      assertThat(result.table().rows()).hasSize(12);
      assertThat(result.table().rows().get(0).taskId()).isEqualTo("trial-3-2");
      assertThat(result.table().resultKeys().get(0)).isEqualTo("score");
      // the trials lacking the key come last: the one that wrote another key and the one that failed
      assertThat(result.trials().subList(10, 12)).extracting(t -> t.task().id())
          .containsExactlyInAnyOrder("trial-4-3", "trial-1-1");
      assertThat(result.trials().subList(10, 12)).allSatisfy(t -> assertThat(t.score()).isNull());
      assertThat(result.group().task("trial-1-1").status()).isEqualTo(TaskStatus.FAILED);
      assertThat(result.group().tasks()).extracting(TaskResult::id).startsWith("trial-1-1", "trial-1-2", "trial-1-3", "trial-2-1");
      assertThat(result.render()).contains("trial-3-2").contains("score = 100");
    }
  }

  @Test
  void aMinimisingObjectivePicksTheSmallestValue() throws Exception {
    try (Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build())) {
      TuneResult result = berth.tune(grid(), quadratic(), Objective.min("score"));

      assertThat(result.bestOption()).contains(Map.of("x", 1, "y", 3));
      assertThat(result.best().orElseThrow().score()).isEqualTo(95);
    }
  }

  @Test
  void aGridWhoseIdsCollideIsRefusedBeforeAnythingStarts() {
    try (Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build())) {
      assertThatThrownBy(() -> berth.tune(grid(), Tasks.template("trial-{x}", "true"), Objective.max("score")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("gives the same id 'trial-1'")
          .hasMessageContaining("add {y} to the id");
    }
  }
}

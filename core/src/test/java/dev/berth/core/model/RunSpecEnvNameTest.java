package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RunSpecEnvNameTest {

  @Test
  void dependenciesWhoseVariablesWouldCollideAreRefusedNamingBoth() {
    TaskSpec a = TaskSpec.builder("a-b", "g").command("x").build();
    TaskSpec b = TaskSpec.builder("a.b", "g").command("x").build();
    TaskSpec c = TaskSpec.builder("c", "g").command("x").after(Dependency.allSucceeded(List.of(a.id(), b.id()))).build();

    assertThatThrownBy(() -> new RunSpec("r", "w", SchedulerConfig.DEFAULTS, List.of(new GroupSpec("g", List.of(a, b, c)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("task c depends on a-b and a.b, which would both be BERTH_DEP_A_B_DIR; rename one of them");
  }

  @Test
  void anIdBecomesAVariableNameInUpperCaseWithUnderscores() {
    assertThat(TaskId.of("train-0.1_x").envName()).isEqualTo("TRAIN_0_1_X");
  }
}

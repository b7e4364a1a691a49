package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectiveTest {

  @Test
  void theSpecFormParses() {
    assertThat(Objective.parse("{key: val_acc, goal: max}")).isEqualTo(Objective.max("val_acc"));
  }

  @Test
  void bracesQuotesOrderAndCaseAreOptional() {
    assertThat(Objective.parse(" goal: MIN , key: \"val_loss\" ")).isEqualTo(Objective.min("val_loss"));
    assertThat(Objective.parse("{key: 'loss', goal: min}")).isEqualTo(Objective.min("loss"));
  }

  @Test
  void itPrintsBackAsTheSpecForm() {
    assertThat(Objective.max("val_acc")).hasToString("{key: val_acc, goal: max}");
    assertThat(Objective.parse(Objective.min("loss").toString())).isEqualTo(Objective.min("loss"));
  }

  @Test
  void aMissingGoalIsRejectedNamingTheChoices() {
    assertThatThrownBy(() -> Objective.parse("{key: val_acc}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'goal' is required: max or min");
  }

  @Test
  void anUnknownGoalIsRejected() {
    assertThatThrownBy(() -> Objective.parse("{key: acc, goal: up}")).hasMessageContaining("must be max or min, not 'up'");
  }

  @Test
  void anUnknownFieldIsRejected() {
    assertThatThrownBy(() -> Objective.fromMap(Map.of("key", "acc", "goal", "max", "mode", "x")))
        .hasMessageContaining("unknown field 'mode'");
  }

  @Test
  void aMissingKeyOrAFieldWithoutAColonIsRejected() {
    assertThatThrownBy(() -> Objective.parse("{goal: max}")).hasMessageContaining("'key' is required");
    assertThatThrownBy(() -> Objective.parse("{val_acc}")).hasMessageContaining("is not 'name: value'");
    assertThatThrownBy(() -> Objective.parse("{key: a, goal: max")).hasMessageContaining("unbalanced braces");
  }
}

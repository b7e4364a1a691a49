package dev.berth.cli.args;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearestNamesTest {

  private static final List<String> COMMANDS = List.of("run", "resume", "status", "report", "retry", "devices", "ps");

  @Test
  void twoSwappedLettersAreOneEditAway() {
    assertThat(NearestNames.to("rnu", COMMANDS)).containsExactly("run");
    assertThat(NearestNames.to("stauts", COMMANDS)).containsExactly("status");
  }

  @Test
  void theBeginningOfANameFindsIt() {
    assertThat(NearestNames.to("dev", COMMANDS)).containsExactly("devices");
  }

  @Test
  void aWordFarFromEveryNameFindsNone() {
    assertThat(NearestNames.to("xyz", COMMANDS)).isEmpty();
    assertThat(NearestNames.to("spec.yaml", COMMANDS)).isEmpty();
  }

  @Test
  void theClosestComesFirst() {
    assertThat(NearestNames.to("retort", COMMANDS)).startsWith("report");
  }
}

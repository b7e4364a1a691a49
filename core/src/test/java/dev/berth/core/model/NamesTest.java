package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NamesTest {

  @Test
  void lettersDigitsDotsUnderscoresAndDashesMakeAName() {
    assertThat(Names.valid("sweep_2.lr-0.1")).isTrue();
    assertThat(Names.check("run", "quickstart")).isEqualTo("quickstart");
  }

  @Test
  void spacesSlashesEmptyAndTheDotFoldersAreRefusedWithTheRule() {
    assertThat(Names.valid("my run")).isFalse();
    assertThat(Names.valid("a/b")).isFalse();
    assertThat(Names.valid("")).isFalse();
    assertThat(Names.valid(null)).isFalse();
    assertThat(Names.valid(".")).isFalse();
    assertThat(Names.valid("a".repeat(256))).as("longer than a folder name holds").isFalse();
    assertThat(Names.valid("a".repeat(255))).isTrue();
    assertThatThrownBy(() -> Names.check("group", ".."))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("group name '..' must match [A-Za-z0-9._-]+ (and not be . or ..), at most 255 characters");
  }

  @Test
  void aRunSpecAndAGroupSpecCheckTheirNamesByTheSameRule() {
    assertThatThrownBy(() -> new GroupSpec("..", java.util.List.of()))
        .hasMessageContaining("group name '..' must match");
  }
}

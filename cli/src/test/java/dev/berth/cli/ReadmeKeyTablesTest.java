package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class ReadmeKeyTablesTest {

  @Test
  void theReadmesKeyTablesAreTheOnesTheSettingsTablesGenerate() throws Exception {
    if ("update".equals(System.getProperty("berth.readme"))) {
      ReadmeKeyTables.update();
    }
    String readme = Files.readString(ReadmeKeyTables.README);

    assertThat(readme)
        .as("README.md's key tables differ from the settings tables; regenerate them as ReadmeKeyTables says")
        .isEqualTo(ReadmeKeyTables.regenerate(readme));
  }

  @Test
  void everyKeyOfTheTablesHasARow() {
    assertThat(ReadmeKeyTables.taskKeys()).contains("| `memory` | memory size | scheduler.default-memory | yes |",
        "| `id` | text | required |  |");
    assertThat(ReadmeKeyTables.configKeys()).contains("| `scheduler.max-process` | whole number | `20` |",
        "| `slurm.partition` | text | `\"\"` |");
  }
}

package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PoolKeysDocTest {

  private static final Path POOLS_MD = Path.of("..", "docs", "pools.md");

  @Test
  void docsPoolsKeyTableListsThePoolKeysInTableOrder() throws Exception {
    String docs = Files.readString(POOLS_MD);
    String table = docs.substring(docs.indexOf("| key | values | default | meaning |"));
    table = table.substring(0, table.indexOf("\n\n"));
    List<String> documented = new ArrayList<>();
    Matcher row = Pattern.compile("(?m)^\\| `([a-z-]+)` \\|").matcher(table);
    while (row.find()) {
      documented.add(row.group(1));
    }

    assertThat(documented).isEqualTo(PoolKeys.TABLE.keys().stream().map(ConfigKey::key).toList());
  }

  @Test
  void readingAPoolGoesThroughTheTableWithTheKeysAsWritten() {
    PoolSpec pool = PoolSpec.read("fast", java.util.Map.of("size", "auto", "hwm", 4, "memory", "1GiB"));

    assertThat(pool.name()).isEqualTo("fast");
    assertThat(pool.size()).as("auto").isZero();
    assertThat(pool.hwm()).isEqualTo(4);
    assertThat(pool.memoryBytes()).isEqualTo(1L << 30);
    assertThat(PoolKeys.TABLE.shown(pool)).containsEntry("size", "auto").containsEntry("hwm", "4");
  }
}

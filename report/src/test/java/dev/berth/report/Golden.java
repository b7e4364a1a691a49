package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares rendered text with a file under {@code src/test/resources/golden/}. Run the tests with
 * {@code -Dgolden.update=true} to rewrite the files after an intended change, then review their diff.
 */
final class Golden {

  private Golden() {}

  static void assertMatches(String name, String actual) throws IOException {
    if (Boolean.getBoolean("golden.update")) {
      Path file = Path.of("src", "test", "resources", "golden", name);
      Files.createDirectories(file.getParent());
      Files.writeString(file, actual, StandardCharsets.UTF_8);
      return;
    }
    String expected;
    try (InputStream in = Golden.class.getResourceAsStream("/golden/" + name)) {
      assertThat(in).as("golden file %s (create it with -Dgolden.update=true)", name).isNotNull();
      expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    // Line ends are compared by the tests that care; a checkout may have converted the golden file's.
    assertThat(lf(actual)).isEqualTo(lf(expected));
  }

  private static String lf(String s) {
    return s.replace("\r\n", "\n");
  }
}

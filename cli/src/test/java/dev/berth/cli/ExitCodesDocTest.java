package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/exit-codes.md, the README and {@code berth --help} name exactly the exit codes of
 * {@link ExitCodes}. Regenerate the doc's table with {@code -Dberth.readme=update}.
 */
class ExitCodesDocTest {

  private static final Path DOC = ReadmeKeyTables.README.resolveSibling("docs").resolve("exit-codes.md");
  private static final String BEGIN = "<!-- exit codes: generated from cli/ExitCodes by ExitCodesDocTest; do not edit -->\n";
  private static final String END = "<!-- end of exit codes -->";

  static String table() {
    return "| code | meaning |\n| --- | --- |\n" + ExitCodes.ALL.stream()
        .map(c -> "| " + c.code() + " | " + c.meaning() + " |\n").collect(Collectors.joining());
  }

  static String regenerate(String doc) {
    int from = doc.indexOf(BEGIN) + BEGIN.length();
    int to = doc.indexOf(END);
    return doc.substring(0, from) + table() + doc.substring(to);
  }

  @Test
  void theDocsTableIsTheOneExitCodesGenerates() throws Exception {
    String doc = Files.readString(DOC);
    if ("update".equals(System.getProperty("berth.readme"))) {
      Files.writeString(DOC, regenerate(doc));
      doc = Files.readString(DOC);
    }

    assertThat(doc).as("docs/exit-codes.md differs from ExitCodes; regenerate it with -Dberth.readme=update")
        .isEqualTo(regenerate(doc));
  }

  @Test
  void theReadmeLinksTheDocAndNamesEveryCode() throws Exception {
    String readme = Files.readString(ReadmeKeyTables.README);

    assertThat(readme).contains("(docs/exit-codes.md)");
    for (ExitCodes.Code c : ExitCodes.ALL) {
      assertThat(readme).as("README names exit code %d", c.code()).containsPattern("\\b" + c.code() + "\\b");
    }
  }

  @Test
  void helpListsEveryExitCode() {
    StringWriter out = new StringWriter();
    int code = Main.execute(new String[] {"--help"}, new PrintWriter(out), new PrintWriter(new StringWriter()));

    assertThat(code).isEqualTo(ExitCodes.OK);
    for (ExitCodes.Code c : ExitCodes.ALL) {
      assertThat(out.toString()).containsPattern("(?m)^\\s+" + c.code() + "\\s+" + Pattern.quote(c.meaning().substring(0, 20)));
    }
  }
}

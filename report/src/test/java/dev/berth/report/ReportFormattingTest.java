package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plain numbers, unique headers and cells that neither a spreadsheet nor a terminal can be tricked by. */
class ReportFormattingTest {

  @TempDir Path dir;

  private static RunReport oneTask(String... params) {
    return SampleRun.single(SampleRun.task("t", "g", TaskStatus.SUCCEEDED, SampleRun.params(params), null,
        SampleRun.attempt(1, 0, 1, 0, "cuda:1", 0, 0, "SUCCEEDED", null)));
  }

  @Test
  void aResultWrittenAsTenPointZeroIsShownAsTenPointZeroNotInScientificNotation() throws IOException {
    Path file = Files.writeString(dir.resolve("result.json"), "{\"loss\": 10.0, \"tiny\": 1e-07, \"big\": 1.5E3}");
    Map<String, Object> values = ResultFile.parse(file);

    String csv = CsvResults.render(oneTask(), Map.of("t", values));
    String md = MarkdownReport.render(oneTask(), TaskResults.of(Map.of("t", values)), null);

    assertThat(csv).contains(",1500,10.0,0.0000001\r\n").doesNotContain("E+").doesNotContain("E-");
    assertThat(md).contains("| 1500 | 10.0 | 0.0000001 |").doesNotContain("E+");
  }

  @Test
  void bothTablesNameTheDeviceTheTaskRanOn() {
    String csv = CsvResults.render(oneTask(), Map.of());
    String md = MarkdownReport.render(oneTask());

    assertThat(csv).startsWith("id,group,status,attempts,device,duration_ms\r\nt,g,SUCCEEDED,1,cuda:1,1000\r\n");
    assertThat(md).contains("| task | device |").contains("| t | cuda:1 |");
  }

  @Test
  void aResultKeyNamedLikeAMatrixKeyGetsItsOwnHeaderInTheMarkdownSweep() {
    RunReport r = oneTask("lr", "0.1", "status", "x");

    String md = MarkdownReport.render(r, TaskResults.of(Map.of("t", Map.of("lr", 0.2, "task", "y"))), null);

    String header = md.lines().filter(l -> l.startsWith("| task | lr")).findFirst().orElseThrow();
    assertThat(header).isEqualTo("| task | lr | param.status | result.lr | result.task | status |");
  }

  @Test
  void aResultKeyThatOnlyRepeatsTheMatrixValueOfItsNameIsNotShownTwice() {
    RunReport r = oneTask("client", "3", "seed", "1");

    String md = MarkdownReport.render(r, TaskResults.of(Map.of("t", Map.of("client", 3, "acc", 0.5))), null);
    String html = HtmlReport.render(r,
        HtmlOptions.defaults().withResults(TaskResults.of(Map.of("t", Map.of("client", 3, "acc", 0.5)))));

    assertThat(md.lines().filter(l -> l.startsWith("| task | client")).findFirst().orElseThrow())
        .isEqualTo("| task | client | seed | acc | status |");
    assertThat(html).doesNotContain("result.client");
  }

  @Test
  void csvCellsThatASpreadsheetWouldRunAsFormulasAreNeutralisedAndControlCharactersRemoved() {
    Map<String, Object> hostile = Map.of(
        "a", "=cmd|' /C calc'!A0", "b", "+1+1", "c", "-2+3", "d", "@SUM(A1)", "e", "\tx", "f", "\rx",
        "g", "ok\u0000\u001b[31m", "h", "-0.5", "i", 3);

    String csv = CsvResults.render(oneTask(), Map.of("t", hostile));

    String row = csv.substring(csv.indexOf("\r\n") + 2);
    assertThat(row).isEqualTo("t,g,SUCCEEDED,1,cuda:1,1000,'=cmd|' /C calc'!A0,'+1+1,'-2+3,'@SUM(A1),'\tx,\"'\rx\","
        + "ok[31m,-0.5,3\r\n");
  }

  @Test
  void markdownDropsRawNulAndEscapeCharacters() {
    String md = MarkdownReport.render(oneTask(), TaskResults.of(Map.of("t", Map.of("note", "red\u001b[31m\u0000!"))), null);

    assertThat(md).doesNotContain("\u001b").doesNotContain("\u0000").contains("red\\[31m!");
  }
}

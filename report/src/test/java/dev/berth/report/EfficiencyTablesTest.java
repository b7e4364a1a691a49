package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.Efficiency;
import dev.berth.core.report.Efficiency.TaskUse;
import dev.berth.core.report.Efficiency.TemplateUse;
import dev.berth.core.report.Efficiency.Use;
import dev.berth.core.report.RunReport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The efficiency section in report.html, report.md and the terminal: the same rows, each escaped for its format. */
class EfficiencyTablesTest {

  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  /** Two tasks of a template whose text carries markup, one learned. */
  private static RunReport measured() {
    Use memory = new Use(2 * 4 * GIB * 10.0, (200 + 240) * MIB * 10.0);
    Efficiency e = new Efficiency(3, 2, memory, Use.ZERO, new Use(20, 5), List.of(
        new TemplateUse("g", "t-{i}<b>|x", 2, 4 * GIB, 240 * MIB, 240 * MIB, memory)), List.of(
        new TaskUse("t-1", "g", "t-{i}<b>|x", 4 * GIB, 200 * MIB, 0, -1, 1, 2.5, 10, null),
        new TaskUse("t-2", "g", "t-{i}<b>|x", 300 * MIB, 240 * MIB, 0, -1, 1, 2.5, 10,
            "memory 300 MiB learned from 3 tasks (declared 4 GiB)")));
    return SampleRun.report().withEfficiency(e);
  }

  @Test
  void theHtmlReportHasAnEfficiencySectionWithEscapedTemplates() throws Exception {
    String html = HtmlReport.render(measured(), HtmlOptions.defaults());
    HtmlDoc doc = HtmlDoc.parse(html);

    assertThat(doc.text("//section[@id='efficiency']/p")).isEqualTo(
        "2 of 3 ended attempts measured; host memory 95% wasted, CPU 75% unused");
    assertThat(HtmlDoc.cells(doc.all("//table[@class='efficiency-totals']/tbody/tr").get(0)))
        .containsExactly("host memory", "80 GiB·s", "4.3 GiB·s", "75.7 GiB·s", "95%");
    assertThat(HtmlDoc.cells(doc.all("//table[@class='efficiency-templates']/tbody/tr").get(0)))
        .containsExactly("g", "t-{i}<b>|x", "2", "4 GiB", "240 MiB", "240 MiB", "95%");
    assertThat(HtmlDoc.cells(doc.all("//table[@class='efficiency-tasks']/tbody/tr").get(1)))
        .containsExactly("t-2", "300 MiB", "240 MiB", "60 MiB", "-", "-", "2.5 s of 10.0",
            "memory 300 MiB learned from 3 tasks (declared 4 GiB)");
    assertThat(html).doesNotContain("<b>|x").contains("href=\"#efficiency\"");
  }

  @Test
  void theMarkdownReportHasTheSameTablesWithCellsEscaped() {
    String md = MarkdownReport.render(measured());

    assertThat(md).contains("## Efficiency", "**Per template**", "**Per task**")
        .contains("| host memory | 80 GiB·s | 4.3 GiB·s | 75.7 GiB·s | 95% |")
        .doesNotContain("<b>|x");
  }

  @Test
  void theTerminalTextAlignsTheTablesAndShowsNoControlCharacters() {
    String text = EfficiencyTables.text(measured());

    assertThat(text).startsWith("Efficiency of run ").contains("Per template", "Per task")
        .contains("t-2   300 MiB  240 MiB  60 MiB");
    assertThat(EfficiencyTables.plain("a\u001b[31mb\nc")).isEqualTo("a?[31mb?c");
  }

  @Test
  void aRunWithNothingMeasuredHasNoSection() {
    RunReport plain = SampleRun.report();

    assertThat(EfficiencyTables.shown(plain)).isFalse();
    assertThat(MarkdownReport.render(plain)).doesNotContain("Efficiency");
    assertThat(HtmlReport.render(plain, HtmlOptions.defaults())).doesNotContain("efficiency");
  }
}

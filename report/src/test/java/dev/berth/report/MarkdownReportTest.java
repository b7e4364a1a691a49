package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.RunReport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MarkdownReportTest {

  private final RunReport report = SampleRun.report();

  @Test
  void theSampleRunRendersAsTheGoldenMarkdown() throws Exception {
    String md = MarkdownReport.render(report, SampleRun.taskResults(), Objective.max("val_acc"));

    Golden.assertMatches("report.md", md);
  }

  @Test
  void markupAndPipesFromTasksAreEscapedInCells() {
    String md = MarkdownReport.render(report, SampleRun.taskResults(), null);

    assertThat(md).doesNotContain("<script>").contains("eval-\\<script\\>alert(1)\\</script\\>");
    assertThat(md).contains("loss is nan \\| diverged");
    String failureRow = md.lines().filter(l -> l.startsWith("| eval-")).findFirst().orElseThrow();
    assertThat(failureRow.replace("\\|", "").chars().filter(c -> c == '|').count())
        .as("cell separators in %s", failureRow).isEqualTo(7);
  }

  @Test
  void lineBreaksInAMessageStayInsideTheirCell() {
    String md = MarkdownReport.render(report);

    assertThat(md).contains("| Traceback (most recent call last):<br>  File \"train.py\", line 3<br>ValueError");
  }

  @Test
  void aLongMessageIsCutInTheTable() {
    String longError = "x".repeat(MarkdownReport.MAX_MESSAGE + 50);
    RunReport r = SampleRun.single(SampleRun.task("long", "g", dev.berth.core.report.TaskStatus.FAILED,
        SampleRun.params(), longError, SampleRun.attempt(1, 0, 1, 1, "cpu", 0, 0, "FAILED", null)));

    String md = MarkdownReport.render(r);

    assertThat(md).contains("x".repeat(MarkdownReport.MAX_MESSAGE) + "…").doesNotContain("x".repeat(MarkdownReport.MAX_MESSAGE + 1));
  }

  @Test
  void withoutAnObjectiveTheSweepKeepsSubmissionOrder() {
    String md = MarkdownReport.render(report, SampleRun.taskResults(), null);

    assertThat(md).contains("## Sweep\n").doesNotContain("best val_acc first");
    String sweep = md.substring(md.indexOf("## Sweep\n"));
    assertThat(sweep.lines().skip(2).findFirst().orElseThrow()).as("no rank column: the order is not a ranking")
        .startsWith("| task |");
    assertThat(sweep).contains("| train-0.1-1 |").doesNotContain("| 1 | train-0.1-1 |");
  }

  @Test
  void aRunWithoutMatrixTasksHasNoSweepSection() {
    RunReport r = SampleRun.single(SampleRun.task("only", "g", dev.berth.core.report.TaskStatus.SUCCEEDED,
        SampleRun.params(), null, SampleRun.attempt(1, 0, 1, 0, "cpu", 0, 0, "SUCCEEDED", null)));

    assertThat(MarkdownReport.render(r, TaskResults.of(Map.of("only", Map.of("acc", 1))), Objective.max("acc")))
        .doesNotContain("Sweep");
  }

  @Test
  void anAttemptThatTrainedAgainAfterRunningOutOfGpuMemoryShowsItsTrainCallsNextToTheAttemptCount() {
    RunReport r = SampleRun.single(
        SampleRun.task("retrained", "g", dev.berth.core.report.TaskStatus.SUCCEEDED, SampleRun.params(), null,
            SampleRun.retrainedAttempt(1, 0, 30)),
        SampleRun.task("plain", "g", dev.berth.core.report.TaskStatus.SUCCEEDED, SampleRun.params(), null,
            SampleRun.attempt(1, 0, 1, 0, "cpu", 0, 0, "SUCCEEDED", null)));

    String md = MarkdownReport.render(r);

    assertThat(md.lines().filter(l -> l.startsWith("| retrained |"))).singleElement().asString()
        .endsWith("| 1 (2 train calls) |");
    assertThat(md.lines().filter(l -> l.startsWith("| plain |"))).singleElement().asString().endsWith("| 1 |");
  }

  @Test
  void unreadableResultsAreListedAsNotes() {
    TaskResults results = new TaskResults(Map.of(), List.of("train/t/result.json: malformed JSON"));

    assertThat(MarkdownReport.render(report, results, null)).endsWith("## Notes\n\n- train/t/result.json: malformed JSON\n");
  }
}

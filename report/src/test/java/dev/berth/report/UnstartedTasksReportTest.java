package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnstartedTasksReportTest {

  @TempDir Path runDir;

  /** A sweep stopped after its first task: one success, one interrupted, three never started. */
  private static RunReport stoppedSweep() {
    List<TaskReport> tasks = new ArrayList<>();
    tasks.add(SampleRun.task("t-0", "g", TaskStatus.SUCCEEDED, SampleRun.params("i", "0"), null,
        SampleRun.attempt(1, 0, 5, 0, "cpu", SampleRun.GIB, 0, "SUCCEEDED", null)));
    tasks.add(SampleRun.task("t-1", "g", TaskStatus.PENDING, SampleRun.params("i", "1"), null,
        SampleRun.attempt(1, 5, 9, -1, "cpu", SampleRun.GIB, 0, "INTERRUPTED", null)));
    for (int i = 2; i < 5; i++) {
      tasks.add(SampleRun.task("t-" + i, "g", TaskStatus.PENDING, SampleRun.params("i", Integer.toString(i)), null));
    }
    GroupReport g = SampleRun.group("g", tasks);
    return new RunReport("stopped", RunStatus.FAILED, SampleRun.T0, SampleRun.T0.plusSeconds(9), g.totals(), List.of(g));
  }

  @Test
  void theHtmlReportListsTasksThatStartedAndCountsTheNeverStartedOnesInALine() throws Exception {
    HtmlDoc doc = HtmlDoc.parse(HtmlReport.render(stoppedSweep(), HtmlOptions.defaults()));

    assertThat(doc.all("//table[@class='sweep']/tbody/tr")).hasSize(2);
    assertThat(doc.all("//table[@class='failures']/tbody/tr")).hasSize(1);
    assertThat(doc.all("//p[contains(@class,'unstarted')]")).extracting(e -> e.getTextContent())
        .containsExactly("3 pending tasks have not started (t-2 to t-4).",
            "3 pending tasks have not started (t-2 to t-4).");
  }

  @Test
  void theMarkdownReportListsTasksThatStartedAndCountsTheNeverStartedOnesInALine() {
    String md = MarkdownReport.render(stoppedSweep());

    assertThat(md).contains("| t-1 |").doesNotContain("| t-2 |", "| t-4 |");
    assertThat(md.split("3 pending tasks have not started \\(t-2 to t-4\\)\\.", -1)).hasSize(3);
  }

  @Test
  void noFolderIsReadForATaskThatNeverStarted() throws Exception {
    for (String id : List.of("t-0", "t-3")) {
      Files.createDirectories(runDir.resolve("g").resolve(id));
      Files.writeString(runDir.resolve("g").resolve(id).resolve(ResultFile.NAME), "{\"acc\": 1}");
    }

    assertThat(TaskResults.read(runDir, stoppedSweep()).byTask()).containsOnlyKeys("t-0");
  }
}

package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/** The page links only the logs a task has: a call in an engine makes its logs only when it writes. */
class TaskLogsTest {

  @TempDir Path runDir;

  private static TaskReport task(String id, String clusterJob) {
    AttemptReport a = new AttemptReport(1, SampleRun.T0, SampleRun.T0.plusSeconds(1), 0, "cpu", 42, clusterJob, 0, 0, 1,
        "SUCCEEDED", null, null, null, null);
    return new TaskReport(id, "g", TaskStatus.SUCCEEDED, List.of("x"), "g/" + id, SampleRun.params(), null, List.of(a));
  }

  private RunReport calls() throws IOException {
    Files.createDirectories(runDir.resolve("g/quiet"));
    Files.createDirectories(runDir.resolve("g/chatty"));
    Files.writeString(runDir.resolve("g/chatty/stdout.log"), "hello\n");
    return SampleRun.single(task("quiet", "two/engine-1"), task("chatty", "two/engine-2"), task("process", null));
  }

  @Test
  void aCallThatWroteNothingHasNeitherLogAndOneThatPrintedHasItsStdoutOnly() throws IOException {
    TaskLogs logs = TaskLogs.read(runDir, calls());

    assertThat(logs.withoutStdout()).containsExactlyInAnyOrder("quiet");
    assertThat(logs.withoutStderr()).containsExactlyInAnyOrder("quiet", "chatty");
  }

  @Test
  void aProcessOfBerthsOwnIsNotLookedAtItsLogsAreMadeBeforeItRuns() throws IOException {
    TaskLogs logs = TaskLogs.read(runDir, calls());

    assertThat(logs.hasStdout("process")).isTrue();
    assertThat(logs.hasStderr("process")).isTrue();
  }

  @Test
  void thePageLinksOnlyTheLogsThatAreThereAndSaysNoOutputForACallWithout() throws Exception {
    RunReport report = calls();
    ReportFiles.writeAll(report, runDir, ReportOptions.defaults());

    HtmlDoc doc = HtmlDoc.parse(Files.readString(runDir.resolve(ReportFiles.HTML)));
    List<Element> rows = doc.all("//table[@class='success']/tbody/tr");

    assertThat(rows).extracting(r -> HtmlDoc.cells(r).get(HtmlDoc.cells(r).size() - 1))
        .containsExactly("no output", "stdout", "stdout stderr");
    assertThat(doc.all("//table[@class='success']//a")).extracting(a -> a.getAttribute("href"))
        .containsExactly("g/chatty/stdout.log", "g/process/stdout.log", "g/process/stderr.log");
  }
}

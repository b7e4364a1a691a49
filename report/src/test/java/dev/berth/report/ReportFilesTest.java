package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportFilesTest {

  @TempDir Path runDir;

  @Test
  void allThreeReportsAreWrittenAndTheirPathsReturned() throws IOException {
    WrittenReports w = ReportFiles.writeAll(SampleRun.report(), runDir, ReportOptions.defaults());

    assertThat(w.paths()).containsExactly(
        runDir.resolve("report.html"), runDir.resolve("report.md"), runDir.resolve("results.csv"));
    assertThat(Files.readString(w.html())).startsWith("<!DOCTYPE html>");
    assertThat(Files.readString(w.markdown())).startsWith("# Berth run sweep-demo: FAILED");
    assertThat(Files.readString(w.csv())).startsWith("id,group,status,attempts,device,duration_ms,lr,seed\r\n");
    assertThat(w.warnings()).isEmpty();
  }

  @Test
  void tasksResultFilesFeedTheReportsAndTheObjectiveRanksTheSweep() throws IOException {
    result("train/train-0.1-1", "{\"val_acc\": 0.91}");
    result("train/train-0.1-2", "{\"val_acc\": 0.95}");
    result("train/train-0.01-1", "{\"val_acc\": oops}");

    WrittenReports w = ReportFiles.writeAll(SampleRun.report(), runDir,
        ReportOptions.defaults().withObjective(Objective.max("val_acc")));

    assertThat(Files.readString(w.markdown())).contains("## Sweep: best val_acc first", "| 1 | train-0.1-2 |");
    assertThat(Files.readString(w.csv())).contains("train-0.1-1,train,SUCCEEDED,1,cuda:0,120000,0.1,1,0.91\r\n");
    assertThat(w.warnings()).singleElement().asString().startsWith("train/train-0.01-1/result.json: malformed JSON");
    assertThat(Files.readString(w.html())).contains("train/train-0.01-1/result.json: malformed JSON");
  }

  @Test
  void reportsReplaceOldOnesAndLeaveNoTemporaryFiles() throws IOException {
    Files.writeString(runDir.resolve("report.md"), "old");
    Files.writeString(runDir.resolve("report.json"), "{}");

    ReportFiles.writeAll(SampleRun.report(), runDir, ReportOptions.defaults().withTitle("Nightly"));

    assertThat(Files.readString(runDir.resolve("report.md"))).startsWith("# Berth run");
    assertThat(Files.readString(runDir.resolve("report.html"))).contains("<h1>Nightly ");
    assertThat(Files.readString(runDir.resolve("report.json"))).as("left to the runtime").isEqualTo("{}");
    try (Stream<Path> files = Files.list(runDir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("report.html", "report.md", "results.csv", "report.json");
    }
  }

  @Test
  void aMissingRunFolderIsCreated() throws IOException {
    Path nested = runDir.resolve("a").resolve("b");

    WrittenReports w = ReportFiles.writeAll(SampleRun.report(), nested, ReportOptions.defaults());

    assertThat(w.paths()).allMatch(Files::isRegularFile);
  }

  private void result(String taskDir, String json) throws IOException {
    Files.createDirectories(runDir.resolve(taskDir));
    Files.writeString(runDir.resolve(taskDir).resolve("result.json"), json);
  }
}

package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.RunReport;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskResultsTest {

  @TempDir Path runDir;

  private final RunReport report = SampleRun.report();

  @Test
  void aFlatObjectIsReadWithNumbersAsWrittenAndNestedValuesAsJsonText() throws IOException {
    write("train/train-0.1-1", "{\"val_acc\": 0.9312, \"epochs\": 20, \"model\": \"lenet\", \"ok\": true,"
        + " \"none\": null, \"curve\": [0.5, 0.9], \"cm\": {\"tp\": 3}}");

    TaskResults r = TaskResults.read(runDir, report);

    assertThat(r.warnings()).isEmpty();
    assertThat(r.forTask("train-0.1-1"))
        .containsEntry("val_acc", new BigDecimal("0.9312"))
        .containsEntry("epochs", 20)
        .containsEntry("model", "lenet")
        .containsEntry("ok", true)
        .containsEntry("none", null)
        .containsEntry("curve", "[0.5,0.9]")
        .containsEntry("cm", "{\"tp\":3}");
  }

  @Test
  void tasksWithoutAResultFileAreSkippedSilently() {
    TaskResults r = TaskResults.read(runDir, report);

    assertThat(r.byTask()).isEmpty();
    assertThat(r.warnings()).isEmpty();
  }

  @Test
  void malformedFilesBecomeWarningsNamingTheFileRelativeToTheRun() throws IOException {
    write("train/train-0.1-1", "{\"val_acc\": 0.93,");
    write("train/train-0.1-2", "[1, 2]");
    write("train/train-0.01-1", "{\"val_acc\": 0.91}");

    TaskResults r = TaskResults.read(runDir, report);

    assertThat(r.byTask()).containsOnlyKeys("train-0.01-1");
    assertThat(r.warnings()).hasSize(2);
    assertThat(r.warnings().get(0)).startsWith("train/train-0.1-1/result.json: malformed JSON at line 1");
    assertThat(r.warnings().get(1)).isEqualTo("train/train-0.1-2/result.json: not a JSON object;"
        + " write one such as {\"val_acc\": 0.93}");
    assertThat(String.join("\n", r.warnings())).doesNotContain(runDir.toString());
  }

  @Test
  void pythonsNanIsAcceptedAndRanksAsText() throws IOException {
    write("train/train-0.1-1", "{\"loss\": NaN}");

    TaskResults r = TaskResults.read(runDir, report);

    assertThat(r.warnings()).isEmpty();
    assertThat(Formats.value(r.forTask("train-0.1-1").get("loss"))).isEqualTo("NaN");
    assertThat(Values.number(r.forTask("train-0.1-1").get("loss"))).isNull();
  }

  @Test
  void theRecordedWorkdirIsResolvedAgainstTheRunFolder() throws IOException {
    Path elsewhere = runDir.resolve("moved").resolve("make-data");
    Files.createDirectories(elsewhere);
    Files.writeString(elsewhere.resolve("result.json"), "{\"rows\": 5}");
    RunReport r = SampleRun.single(new dev.berth.core.report.TaskReport("make-data", "g",
        dev.berth.core.report.TaskStatus.SUCCEEDED, java.util.List.of("true"), "moved/make-data", SampleRun.params(),
        null, java.util.List.of()));

    assertThat(TaskResults.read(runDir, r).forTask("make-data")).containsEntry("rows", 5);
  }

  @Test
  void anOversizedFileIsSkippedWithAWarning() throws IOException {
    write("train/train-0.1-1", "{\"pad\": \"" + "x".repeat((int) ResultFile.MAX_BYTES) + "\"}");

    TaskResults r = TaskResults.read(runDir, report);

    assertThat(r.byTask()).isEmpty();
    assertThat(r.warnings()).singleElement().asString().contains("larger than 4 MiB");
  }

  private void write(String taskDir, String json) throws IOException {
    Path dir = runDir.resolve(taskDir);
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(ResultFile.NAME), json);
  }
}

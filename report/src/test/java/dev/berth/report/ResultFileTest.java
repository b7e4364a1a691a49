package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultFileTest {

  @TempDir Path runDir;

  private final TaskReport task = task("moved/t");

  @Test
  void aFlatObjectIsReadWithNumbersAsWrittenAndKeysSorted() throws IOException {
    write("g/t", "{\"b\": 10.0, \"a\": 20, \"big\": 123456789012345678901234567890, \"long\": 12345678901,"
        + " \"model\": \"lenet\", \"ok\": false, \"none\": null, \"loss\": NaN}");

    Map<String, Object> values = ResultFile.read(runDir, task).orElseThrow();

    assertThat(values.keySet()).containsExactly("a", "b", "big", "long", "loss", "model", "none", "ok");
    assertThat(values)
        .containsEntry("a", 20)
        .containsEntry("b", new BigDecimal("10.0"))
        .containsEntry("big", new BigInteger("123456789012345678901234567890"))
        .containsEntry("long", 12345678901L)
        .containsEntry("loss", Double.NaN)
        .containsEntry("model", "lenet")
        .containsEntry("ok", false)
        .containsEntry("none", null);
  }

  @Test
  void nestedArraysAndObjectsAreKeptAsTheirCompactJsonText() throws IOException {
    write("g/t", "{\"curve\": [0.5, 0.9], \"cm\": {\"tp\": 3, \"fn\": [1]}}");

    assertThat(ResultFile.read(runDir, task).orElseThrow())
        .containsEntry("curve", "[0.5,0.9]")
        .containsEntry("cm", "{\"tp\":3,\"fn\":[1]}");
  }

  @Test
  void jsonThatIsNotAnObjectIsUnreadableWithAHintNamingTheFileRelativeToTheRun() throws IOException {
    for (String notAnObject : List.of("[1, 2]", "\"done\"", "0.93", "null", "")) {
      write("g/t", notAnObject);

      assertThatThrownBy(() -> ResultFile.read(runDir, task))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("g/t/result.json: not a JSON object; write one such as {\"val_acc\": 0.93}");
    }
  }

  @Test
  void brokenJsonIsUnreadableWithWhereItBroke() throws IOException {
    write("g/t", "{\"val_acc\": 0.93,");

    assertThatThrownBy(() -> ResultFile.read(runDir, task))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("g/t/result.json: malformed JSON at line 1, column ")
        .message().doesNotContain(runDir.toString()).doesNotContain("\n");
  }

  @Test
  void trailingTextAfterTheObjectIsBrokenJson() throws IOException {
    write("g/t", "{\"a\": 1} {\"a\": 2}");

    assertThatThrownBy(() -> ResultFile.read(runDir, task))
        .hasMessageStartingWith("g/t/result.json: malformed JSON");
  }

  @Test
  void aMissingFileIsNoResult() {
    assertThat(ResultFile.read(runDir, task)).isEmpty();
    assertThat(ResultFile.readIn(runDir.resolve("g/t"), task)).isEmpty();
  }

  @Test
  void aFileLargerThanTheLimitIsUnreadableWithoutBeingParsed() throws IOException {
    write("g/t", "{\"pad\": \"" + "x".repeat((int) ResultFile.MAX_BYTES) + "\"");

    assertThatThrownBy(() -> ResultFile.read(runDir, task))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("g/t/result.json: larger than 4 MiB; not read");
  }

  @Test
  void aDirectoryInItsPlaceIsNoResult() throws IOException {
    Files.createDirectories(runDir.resolve("g/t").resolve(ResultFile.NAME));

    assertThat(ResultFile.read(runDir, task)).isEmpty();
    assertThat(ResultFile.readIn(runDir.resolve("g/t"), task)).isEmpty();
  }

  @Test
  void theRecordedFolderComesFirstAndTheRunsLayoutAfterIt() throws IOException {
    write("g/t", "{\"from\": \"layout\"}");
    assertThat(ResultFile.read(runDir, task).orElseThrow()).containsEntry("from", "layout");

    write("moved/t", "{\"from\": \"recorded\"}");
    assertThat(ResultFile.read(runDir, task).orElseThrow()).containsEntry("from", "recorded");
  }

  @Test
  void aTaskIdThatLeavesTheRunFolderIsNotLookedFor() throws IOException {
    Path run = Files.createDirectories(runDir.resolve("run"));
    Files.writeString(runDir.resolve(ResultFile.NAME), "{\"a\": 1}");

    assertThat(ResultFile.read(run, new TaskReport("../..", "g", TaskStatus.SUCCEEDED, List.of("true"), null,
        new TreeMap<>(), null, List.of()))).isEmpty();
  }

  @Test
  void aTaskFolderGivenDirectlyIsReadAsTheRunsLayoutIs() throws IOException {
    Path dir = write("elsewhere/t", "{\"a\": 1}");

    assertThat(ResultFile.readIn(dir, task).orElseThrow()).containsEntry("a", 1);
    write("elsewhere/t", "[1]");
    assertThatThrownBy(() -> ResultFile.readIn(dir, task)).hasMessageStartingWith("g/t/result.json: not a JSON object");
  }

  private static TaskReport task(String workdir) {
    return new TaskReport("t", "g", TaskStatus.SUCCEEDED, List.of("true"), workdir, new TreeMap<>(), null, List.of());
  }

  private Path write(String taskDir, String json) throws IOException {
    Path dir = runDir.resolve(taskDir);
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(ResultFile.NAME), json);
    return dir;
  }
}

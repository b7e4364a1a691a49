package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.report.Totals;
import dev.berth.core.report.TrainCall;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportJsonTest {

  private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
  private static final long GIB = 1L << 30;

  private static RunReport runWith(AttemptReport attempt) {
    TaskReport task = new TaskReport("fit", "g", TaskStatus.SUCCEEDED, List.of("python3", "fit.py"), "g/fit",
        new TreeMap<>(), null, List.of(attempt));
    GroupReport group = new GroupReport("g", Totals.of(List.of(task)), List.of(task));
    return new RunReport("run", RunStatus.SUCCEEDED, T0, T0.plusSeconds(60), group.totals(), List.of(group));
  }

  private static JsonNode onlyAttempt(RunReport report) throws Exception {
    return new ObjectMapper().readTree(ReportJson.toJson(report)).at("/groups/0/tasks/0/attempts/0");
  }

  @Test
  void eachTrainCallOfAnAttemptIsWrittenWithItsDeviceReservationStartAndEnding() throws Exception {
    List<TrainCall> calls = List.of(
        new TrainCall(1, "0", 4 * GIB, T0.plusSeconds(5), T0.plusSeconds(8), "GPU_OOM", "CUDA out of memory"),
        new TrainCall(2, "1", 6 * GIB, T0.plusSeconds(10), T0.plusSeconds(20), TrainCall.TRAINED, null));
    AttemptReport attempt = new AttemptReport(1, T0, T0.plusSeconds(21), 0, "1", 42, null, GIB, 6 * GIB, 1.0,
        "SUCCEEDED", null, null, 3000L, 10_000L, null, null, null, null, null, calls);

    JsonNode calls0 = onlyAttempt(runWith(attempt)).get("trainCalls");

    assertThat(calls0).hasSize(2);
    assertThat(calls0.get(0).get("number").asInt()).isEqualTo(1);
    assertThat(calls0.get(0).get("device").asText()).isEqualTo("0");
    assertThat(calls0.get(0).get("reservedGpuMemoryBytes").asLong()).isEqualTo(4 * GIB);
    assertThat(calls0.get(0).get("startedAt").asText()).isEqualTo("2026-03-01T09:00:05.000Z");
    assertThat(calls0.get(0).get("finishedAt").asText()).isEqualTo("2026-03-01T09:00:08.000Z");
    assertThat(calls0.get(0).get("outcome").asText()).isEqualTo("GPU_OOM");
    assertThat(calls0.get(0).get("error").asText()).isEqualTo("CUDA out of memory");
    assertThat(calls0.get(1).get("outcome").asText()).isEqualTo("TRAINED");
    assertThat(calls0.get(1).get("error").isNull()).isTrue();
  }

  @Test
  void aOneStageAttemptIsWrittenWithAnEmptyListOfTrainCalls() throws Exception {
    AttemptReport attempt = new AttemptReport(1, T0, T0.plusSeconds(3), 0, "cpu", 42, GIB, 0, 1.0, "SUCCEEDED", null);

    JsonNode written = onlyAttempt(runWith(attempt));

    assertThat(written.get("trainCalls").isArray()).isTrue();
    assertThat(written.get("trainCalls")).isEmpty();
  }

  @Test
  void theReportFileIsLaidOutByteForByteAsJacksonsDefaultIndentationLaysItOut(@TempDir Path dir) throws Exception {
    List<TrainCall> calls = List.of(
        new TrainCall(1, "0", 4 * GIB, T0.plusSeconds(5), T0.plusSeconds(8), "GPU_OOM", "CUDA out of memory"));
    RunReport report = runWith(new AttemptReport(1, T0, T0.plusSeconds(21), 0, "1", 42, null, GIB, 6 * GIB, 1.0,
        "SUCCEEDED", null, null, 3000L, 10_000L, null, null, null, null, null, calls));
    Path file = dir.resolve("report.json");

    ReportJson.write(report, file);

    ObjectMapper jacksonDefault = ReportJson.mapper().setDefaultPrettyPrinter(new DefaultPrettyPrinter());
    assertThat(Files.readString(file)).isEqualTo(jacksonDefault.writeValueAsString(report));
    assertThat(Files.readString(file)).contains("\n    \"tasks\" : [ {\n      \"id\" : \"fit\"");
  }
}

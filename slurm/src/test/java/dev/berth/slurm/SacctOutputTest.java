package dev.berth.slurm;

import static dev.berth.slurm.Recordings.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.berth.slurm.SacctOutput.Row;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SacctOutputTest {

  @Test
  void theCommandAsksForAllocationsInTheFixedFormat() {
    assertThat(SacctOutput.command(List.of("12"))).containsExactly(
        "sacct", "--noheader", "--parsable2", "--allocations", "--jobs=12",
        "--format=JobIDRaw,JobID,State,ExitCode,Elapsed,MaxRSS,ReqMem,Reason,TotalCPU,Submit,Start,End,NodeList");
    assertThat(SacctOutput.commandWithSteps(List.of("12", "13"))).containsExactly(
        "sacct", "--noheader", "--parsable2", "--jobs=12,13",
        "--format=JobIDRaw,JobID,State,ExitCode,Elapsed,MaxRSS,ReqMem,Reason,TotalCPU,Submit,Start,End,NodeList");
  }

  @Test
  void theBatchStepCarriesMaxRssAndTheJobLineTotalCpu() {
    List<Row> rows = SacctOutput.parse(read("sacct-usage.txt"));
    Row job = rows.get(0);
    Row batch = rows.get(1);

    assertThat(job.cpuSeconds()).hasValue(1.248);
    assertThat(batch.stepOf()).contains(SlurmJobId.of("60"));
    assertThat(batch.maxRssBytes()).hasValue(168612L * 1024);
    assertThat(rows.get(3).stepOf()).contains(SlurmJobId.of("61_0"));
    assertThat(job.stepOf()).isEmpty();
  }

  @Test
  void cpuTimesKeepTheirFractionOfASecond() {
    assertThat(SacctOutput.seconds("00:01.248")).hasValue(1.248);
    assertThat(SacctOutput.seconds("1-00:00:02")).hasValue(86402.0);
    assertThat(SacctOutput.seconds("")).isEmpty();
  }

  @Test
  void onlySlurmsOwnCancellationOfADependantTellsThatItsDependencyCanNeverBeMet() {
    Map<String, Row> rows = byId(SacctOutput.parse(read("sacct-dependency-never.txt")));

    assertThat(rows.get("899").dependencyNeverSatisfied()).isTrue();
    assertThat(rows.get("900")).extracting(Row::stateText, Row::dependencyNeverSatisfied)
        .containsExactly("CANCELLED by 0", false);
    assertThat(rows.get("898").dependencyNeverSatisfied()).isFalse();
    assertThat(byId(SacctOutput.parse(read("sacct-finished.txt"))).get("13").dependencyNeverSatisfied()).isTrue();
  }

  @Test
  void finishedJobsHaveStateExitCodeAndElapsedTime() {
    Map<String, Row> rows = byId(SacctOutput.parse(read("sacct-finished.txt")));

    assertThat(List.of("10", "11", "12", "13", "16", "17")).extracting(rows::get)
        .extracting(Row::state, Row::exit, Row::elapsed, Row::reason)
        .containsExactly(
            tuple(SlurmState.TIMEOUT, new SlurmExit(0, 0), Optional.of(Duration.ofSeconds(66)), "None"),
            tuple(SlurmState.COMPLETED, new SlurmExit(0, 0), Optional.of(Duration.ofSeconds(4)), "None"),
            tuple(SlurmState.FAILED, new SlurmExit(3, 0), Optional.of(Duration.ofSeconds(2)), "None"),
            tuple(SlurmState.CANCELLED, new SlurmExit(0, 0), Optional.of(Duration.ZERO), "Dependency"),
            tuple(SlurmState.CANCELLED, new SlurmExit(0, 0), Optional.of(Duration.ZERO), "None"),
            tuple(SlurmState.FAILED, new SlurmExit(0, 9), Optional.of(Duration.ofSeconds(1)), "None"));
  }

  @Test
  void aCancelledJobSaysWhoCancelledIt() {
    assertThat(byId(SacctOutput.parse(read("sacct-finished.txt"))).get("16").stateText()).isEqualTo("CANCELLED by 0");
  }

  @Test
  void theRequestedMemoryIsInBytes() {
    Map<String, Row> rows = byId(SacctOutput.parse(read("sacct-finished.txt")));

    assertThat(rows.get("17").requestedMemoryBytes()).isEqualTo(OptionalLong.of(100L << 20));
    assertThat(rows.get("17").maxRssBytes()).isEmpty();
  }

  @Test
  void arrayElementsAreListedByElementWithTheirRawIds() {
    assertThat(SacctOutput.parse(read("sacct-array-finished.txt")))
        .extracting(Row::rawId, r -> r.jobId().orElseThrow().value(), Row::exit)
        .containsExactly(
            tuple("24", "23_0", new SlurmExit(0, 0)), tuple("25", "23_1", new SlurmExit(1, 0)),
            tuple("26", "23_2", new SlurmExit(2, 0)), tuple("23", "23_3", new SlurmExit(3, 0)));
  }

  @Test
  void eachRowCarriesSubmitStartEndAndNodesInTheZoneSacctPrintedThemIn() {
    Map<String, Row> rows = byId(SacctOutput.parse(read("sacct-times.txt"), ZoneId.of("UTC")));

    Row element = rows.get("1472_1");
    assertThat(element.submittedAt()).contains(Instant.parse("2026-11-29T19:33:12Z"));
    assertThat(element.startedAt()).contains(Instant.parse("2026-11-29T19:33:13Z"));
    assertThat(element.endedAt()).contains(Instant.parse("2026-11-29T19:33:15Z"));
    assertThat(element.nodes()).isEqualTo("vm");
    Row pending = rows.get("1473");
    assertThat(pending.startedAt()).as("Unknown").isEmpty();
    assertThat(pending.endedAt()).isEmpty();
    assertThat(pending.nodes()).as("None assigned").isEmpty();
    assertThat(SacctOutput.parse(read("sacct-times.txt"), ZoneId.of("Europe/Paris")).get(0).submittedAt())
        .contains(Instant.parse("2026-11-29T18:33:12Z"));
  }

  @Test
  void theRecordsTellAJobsAccountingWithItsQueueWait() {
    SacctRecords records = SacctRecords.of(SacctOutput.parse(read("sacct-times.txt"), ZoneId.of("UTC")));

    assertThat(records.accounting(SlurmJobId.of("1472_1"))).hasValueSatisfying(a -> {
      assertThat(a.jobId()).isEqualTo("1472_1");
      assertThat(a.state()).isEqualTo("FAILED");
      assertThat(a.exitCode()).isEqualTo("0:9");
      assertThat(a.elapsed()).contains(Duration.ofSeconds(2));
      assertThat(a.queueWait()).contains(Duration.ofSeconds(1));
      assertThat(a.nodes()).isEqualTo("vm");
    });
    assertThat(records.usage(SlurmJobId.of("1472_1")).peakHostMemoryBytes()).hasValue(76328L * 1024);
    assertThat(records.accounting(SlurmJobId.of("9"))).isEmpty();
  }

  @Test
  void stepsShowTheMemoryTheJobReallyUsed() {
    List<Row> rows = SacctOutput.parse(read("sacct-steps.txt"));
    Row batch = rows.stream().filter(r -> r.id().equals("17.batch")).findFirst().orElseThrow();

    assertThat(batch.isStep()).isTrue();
    assertThat(batch.jobId()).isEmpty();
    assertThat(batch.maxRssBytes()).isEqualTo(OptionalLong.of(424520L * 1024));
    assertThat(batch.state()).isEqualTo(SlurmState.CANCELLED);
  }

  @Test
  void sacctLagsSqueueAndCanKnowNothingYet() {
    assertThat(SacctOutput.parse(read("sacct-array-running.txt"))).isEmpty();
    assertThat(SacctOutput.parseJson(read("sacct-array-running.json"))).isEmpty();
    assertThat(SacctOutput.parse(read("sacct-unknown-id.txt"))).isEmpty();
  }

  @Test
  void theJsonFormAgreesOnStatesAndSignals() {
    Map<String, Row> json = byId(SacctOutput.parseJson(read("sacct-finished.json")));
    Map<String, Row> plain = byId(SacctOutput.parse(read("sacct-finished.txt")));

    assertThat(json.keySet()).containsExactlyInAnyOrder(
        "11", "12", "13", "14", "15_0", "15_1", "15_2", "15_3", "16", "17", "18", "19");
    json.forEach((id, row) -> assertThat(row.state()).as(id).isEqualTo(plain.get(id).state()));
    assertThat(json.get("17").exit()).isEqualTo(new SlurmExit(0, 9));
    assertThat(json.get("17").maxRssBytes()).isEqualTo(OptionalLong.of(434708480));
    assertThat(json.get("17").requestedMemoryBytes()).isEqualTo(OptionalLong.of(100L << 20));
  }

  @Test
  void theJsonFormOfSlurm2205LosesNonZeroExitCodes() {
    Map<String, Row> json = byId(SacctOutput.parseJson(read("sacct-finished.json")));

    assertThat(json.get("12").state()).isEqualTo(SlurmState.FAILED);
    assertThat(json.get("12").exit()).as("the plain format says 3:0").isEqualTo(new SlurmExit(0, 0));
  }

  @Test
  void theJsonFormShowsTheTimeOutAndTheArray() {
    assertThat(SacctOutput.parseJson(read("sacct-timeout.json"))).singleElement()
        .extracting(Row::state, Row::elapsed).containsExactly(SlurmState.TIMEOUT, Optional.of(Duration.ofSeconds(66)));
    assertThat(SacctOutput.parseJson(read("sacct-array-finished.json")))
        .extracting(r -> r.jobId().orElseThrow().value()).containsExactlyInAnyOrder("23_0", "23_1", "23_2", "23_3");
  }

  @Test
  void elapsedTimesAndSizesHaveSlurmsForms() {
    assertThat(SacctOutput.elapsed("1-02:03:04")).contains(Duration.ofSeconds(93784));
    assertThat(SacctOutput.elapsed("05:06")).contains(Duration.ofSeconds(306));
    assertThat(SacctOutput.elapsed("")).isEmpty();
    assertThat(SacctOutput.memory("1.5G")).isEqualTo(OptionalLong.of(3L << 29));
    assertThat(SacctOutput.memory("256Mn")).isEqualTo(OptionalLong.of(256L << 20));
    assertThat(SacctOutput.memory("0")).isEqualTo(OptionalLong.of(0));
    assertThat(SacctOutput.memory("")).isEmpty();
  }

  private static Map<String, Row> byId(List<Row> rows) {
    return rows.stream().filter(r -> !r.isStep()).collect(Collectors.toMap(Row::id, Function.identity()));
  }
}

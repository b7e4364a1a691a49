package dev.berth.slurm;

import static dev.berth.slurm.Recordings.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.berth.os.CommandRunner.Result;
import dev.berth.slurm.SqueueOutput.Row;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SqueueOutputTest {

  @Test
  void theCommandAsksForAllStatesOneElementPerLineInTheFixedFormat() {
    assertThat(SqueueOutput.command(List.of("12", "23"))).containsExactly(
        "squeue", "--noheader", "--states=all", "--array", "--jobs=12,23",
        "--Format=JobArrayID:|,JobID:|,State:|,Reason:|,exit_code:|,Name:");
  }

  @Test
  void onlySlurmsOwnCancellationOfADependantTellsThatItsDependencyCanNeverBeMet() {
    Map<String, Row> rows = byId(SqueueOutput.parse(read("squeue-dependency-never.txt")));

    assertThat(rows.get("899").dependencyNeverSatisfied()).isTrue();
    assertThat(rows.get("900").dependencyNeverSatisfied()).isFalse();
    assertThat(rows.get("898").dependencyNeverSatisfied()).isFalse();
    assertThat(byId(SqueueOutput.parse(read("squeue-finished.txt"))).get("16").dependencyNeverSatisfied()).isFalse();
  }

  @Test
  void pendingJobsShowWhyTheyWait() {
    Map<String, Row> rows = byId(SqueueOutput.parse(read("squeue-running.txt")));

    assertThat(rows).hasSize(13);
    assertThat(rows.get("12")).extracting(Row::state, Row::reason).containsExactly(SlurmState.PENDING, "Resources");
    assertThat(rows.get("13")).extracting(Row::state, Row::reason).containsExactly(SlurmState.PENDING, "Dependency");
    assertThat(rows.get("15_3")).extracting(Row::rawId, Row::name).containsExactly("15", "rec.array");
    assertThat(rows.get("10")).extracting(Row::state, Row::exit).containsExactly(SlurmState.RUNNING, SlurmExit.NONE);
  }

  @Test
  void finishedJobsCarryTheirExitAsARawWaitStatus() {
    Map<String, Row> rows = byId(SqueueOutput.parse(read("squeue-finished.txt")));

    assertThat(List.of("11", "12", "13", "16", "17", "19", "10")).extracting(id -> rows.get(id))
        .extracting(Row::state, Row::reason, Row::exit)
        .containsExactly(
            tuple(SlurmState.COMPLETED, "None", new SlurmExit(0, 0)),
            tuple(SlurmState.FAILED, "NonZeroExitCode", new SlurmExit(3, 0)),
            tuple(SlurmState.CANCELLED, "DependencyNeverSatisfied", new SlurmExit(0, 0)),
            tuple(SlurmState.CANCELLED, "None", new SlurmExit(0, 15)),
            tuple(SlurmState.FAILED, "JobLaunchFailure", new SlurmExit(0, 9)),
            tuple(SlurmState.FAILED, "JobLaunchFailure", new SlurmExit(0, 9)),
            tuple(SlurmState.TIMEOUT, "TimeLimit", new SlurmExit(0, 15)));
  }

  @Test
  void arrayElementsAreListedByElementWithTheirOwnRawIds() {
    Map<String, Row> rows = byId(SqueueOutput.parse(read("squeue-finished.txt")));

    assertThat(List.of("15_0", "15_1", "15_2", "15_3")).extracting(id -> rows.get(id))
        .extracting(Row::rawId, Row::exit)
        .containsExactly(
            tuple("20", new SlurmExit(0, 0)), tuple("21", new SlurmExit(1, 0)),
            tuple("22", new SlurmExit(2, 0)), tuple("15", new SlurmExit(3, 0)));
  }

  @Test
  void anArrayLimitedToTwoRunsTwoElementsAndHoldsTheRest() {
    List<Row> rows = SqueueOutput.parse(read("squeue-array-running.txt"));

    assertThat(rows).extracting(r -> r.id().value(), Row::rawId, Row::state, Row::reason).containsExactly(
        tuple("23_2", "23", SlurmState.PENDING, "JobArrayTaskLimit"),
        tuple("23_3", "23", SlurmState.PENDING, "JobArrayTaskLimit"),
        tuple("23_1", "25", SlurmState.RUNNING, "None"),
        tuple("23_0", "24", SlurmState.RUNNING, "None"));
  }

  @Test
  void collapsedPendingElementsAreSkipped() {
    assertThat(SqueueOutput.parse(read("squeue-array-running-collapsed.txt")))
        .extracting(r -> r.id().value()).containsExactly("23_1", "23_0");
    assertThat(SqueueOutput.parse(read("squeue-array-collapsed.txt"))).isEmpty();
  }

  @Test
  void aTimedOutJobEndsWithTimeLimit() {
    assertThat(SqueueOutput.parse(read("squeue-timeout.txt"))).singleElement()
        .extracting(Row::state, Row::reason).containsExactly(SlurmState.TIMEOUT, "TimeLimit");
  }

  @Test
  void theJsonFormAgreesWithTheFixedFormat() {
    Map<String, Row> json = byId(SqueueOutput.parseJson(read("squeue-finished.json")));

    for (Row plain : SqueueOutput.parse(read("squeue-finished.txt"))) {
      assertThat(json.get(plain.id().value())).as(plain.id().value()).isEqualTo(plain);
    }
  }

  @Test
  void theJsonFormIgnoresTheJobListAndGivesEveryJob() {
    List<Row> rows = SqueueOutput.parseJson(read("squeue-running.json"));

    assertThat(rows).extracting(r -> r.id().value()).contains("1", "7", "19").doesNotContain("15_0");
    assertThat(byId(rows).get("7").exit()).isEqualTo(new SlurmExit(3, 0));
    assertThat(byId(rows).get("9").exit().asExitCode()).isEqualTo(138);
  }

  @Test
  void theJsonFormListsStartedArrayElementsAndSkipsCollapsedOnes() {
    assertThat(SqueueOutput.parseJson(read("squeue-array-running.json")))
        .filteredOn(r -> r.id().queryId().equals("23"))
        .extracting(r -> r.id().value(), Row::state)
        .containsExactlyInAnyOrder(tuple("23_0", SlurmState.RUNNING), tuple("23_1", SlurmState.RUNNING));
  }

  @Test
  void squeueKnowingNoneOfTheIdsIsAnEmptyAnswerNotAFailure() {
    assertThat(SqueueOutput.knowsNone(new Result(1, "", read("squeue-error-unknown-id.txt"), false))).isTrue();
    assertThat(SqueueOutput.knowsNone(new Result(1, "", "slurm_load_jobs error: Socket timed out", false))).isFalse();
    assertThat(SqueueOutput.knowsNone(Result.exited(0, ""))).isFalse();
  }

  @Test
  void aLineWithoutTheSixFieldsIsRejected() {
    assertThatThrownBy(() -> SqueueOutput.parse("12|RUNNING\n"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not have the 6 fields");
    assertThatThrownBy(() -> SqueueOutput.parseJson("{\"meta\": {}}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without a jobs array");
  }

  private static Map<String, Row> byId(List<Row> rows) {
    return rows.stream().collect(Collectors.toMap(r -> r.id().value(), Function.identity()));
  }
}

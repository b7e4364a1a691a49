package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepTableTest {

  @Test
  void onlyMatrixTasksAreRowsBestFirstForAMaximum() {
    SweepTable t = SweepTable.of(SampleRun.report(), SampleRun.results(), Objective.max("val_acc"));

    assertThat(t.rows()).extracting(SweepTable.Row::taskId)
        .containsExactly("train-0.1-2", "train-0.1-1", "train-0.01-1", "train-0.01-2");
    assertThat(t.title()).isEqualTo("Sweep: best val_acc first");
    assertThat(t.best()).map(SweepTable.Row::taskId).contains("train-0.1-2");
  }

  @Test
  void smallestComesFirstForAMinimumAndTasksLackingTheKeyStayLast() {
    SweepTable t = SweepTable.of(SampleRun.report(), SampleRun.results(), Objective.min("val_acc"));

    assertThat(t.rows()).extracting(SweepTable.Row::taskId)
        .containsExactly("train-0.01-1", "train-0.1-1", "train-0.1-2", "train-0.01-2");
    assertThat(t.rows().get(3).status()).isEqualTo(TaskStatus.FAILED);
  }

  @Test
  void theObjectiveKeyIsTheFirstResultColumnAndParamsAreSorted() {
    SweepTable t = SweepTable.of(SampleRun.report(), SampleRun.results(), Objective.max("val_acc"));

    assertThat(t.paramNames()).containsExactly("lr", "seed");
    assertThat(t.resultKeys()).containsExactly("val_acc", "load_time", "train_acc", "train_time");
    assertThat(t.rows().get(0).params()).containsEntry("lr", "0.1").containsEntry("seed", "2");
    assertThat(t.rows().get(0).value("val_acc")).contains(new BigDecimal("0.9400"));
  }

  @Test
  void numbersWrittenAsTextRankAsNumbersAndOtherTextAfterThem() {
    RunReport r = run("a", "b", "c", "d");
    Map<String, Map<String, Object>> results = Map.of(
        "a", Map.of("loss", "10"), "b", Map.of("loss", 9.5), "c", Map.of("loss", "NaN"), "d", Map.of("loss", 2));

    SweepTable t = SweepTable.of(r, results, Objective.min("loss"));

    assertThat(t.rows()).extracting(SweepTable.Row::taskId).containsExactly("d", "b", "a", "c");
  }

  @Test
  void tiesKeepSubmissionOrder() {
    SweepTable t = SweepTable.of(run("a", "b", "c"), Map.of("a", Map.of("k", 1), "b", Map.of("k", 2), "c", Map.of("k", 2)),
        Objective.max("k"));

    assertThat(t.rows()).extracting(SweepTable.Row::taskId).containsExactly("b", "c", "a");
  }

  @Test
  void withoutAnyValueForTheKeyThereIsNoBestRow() {
    SweepTable t = SweepTable.of(run("a"), Map.of(), Objective.max("k"));

    assertThat(t.best()).isEmpty();
    assertThat(t.isEmpty()).isFalse();
  }

  private static RunReport run(String... ids) {
    TaskReport[] tasks = new TaskReport[ids.length];
    for (int i = 0; i < ids.length; i++) {
      tasks[i] = SampleRun.task(ids[i], "g", TaskStatus.SUCCEEDED, SampleRun.params("i", Integer.toString(i)), null,
          SampleRun.attempt(1, 0, 1, 0, "cpu", 0, 0, "SUCCEEDED", null));
    }
    return SampleRun.single(tasks);
  }

  @Test
  void rowsAreDataForCallers() {
    List<SweepTable.Row> rows = SweepTable.of(SampleRun.report(), SampleRun.results(), null).rows();

    assertThat(rows).hasSize(4);
    assertThat(rows.get(0).results()).containsKeys("val_acc", "train_acc");
  }
}

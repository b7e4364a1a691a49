package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CsvResultsTest {

  @Test
  void theSampleRunRendersAsTheGoldenCsv() throws Exception {
    Golden.assertMatches("results.csv", CsvResults.render(SampleRun.report(), SampleRun.results()));
  }

  @Test
  void recordsEndWithCrLfAsRfc4180Asks() {
    String csv = CsvResults.render(SampleRun.report(), SampleRun.results());

    assertThat(csv).endsWith("\r\n");
    assertThat(csv.replace("\r\n", "")).as("every line end outside quoted values is CRLF")
        .doesNotContain("\r").containsOnlyOnce("\n");
  }

  @Test
  void fieldsWithCommasQuotesOrLineBreaksAreQuotedWithQuotesDoubled() {
    String csv = CsvResults.render(SampleRun.report(), SampleRun.results());

    assertThat(csv).contains(",\"split, \"\"shuffled\"\"\nseed 1\",60000,");
  }

  @Test
  void theHeaderHasTheFixedColumnsThenParamsThenResultKeysEachSorted() {
    String header = CsvResults.render(SampleRun.report(), SampleRun.results()).lines().findFirst().orElseThrow();

    assertThat(header).isEqualTo(
        "id,group,status,attempts,device,duration_ms,lr,seed,load_time,note,notes,rows,train_acc,train_time,val_acc");
  }

  @Test
  void durationCountsEveryEndedAttemptIncludingRetries() {
    String row = CsvResults.render(SampleRun.report(), SampleRun.results()).lines()
        .filter(l -> l.startsWith("train-0.1-2,")).findFirst().orElseThrow();

    assertThat(row).startsWith("train-0.1-2,train,SUCCEEDED,2,cuda:0,160000,");
  }

  @Test
  void aResultKeyNamedLikeAColumnGetsAPrefixSoHeadersStayUnique() {
    RunReport r = SampleRun.single(SampleRun.task("t", "g", TaskStatus.SUCCEEDED, SampleRun.params("status", "x"),
        null, SampleRun.attempt(1, 0, 1, 0, "cpu", 0, 0, "SUCCEEDED", null)));

    String csv = CsvResults.render(r, Map.of("t", Map.of("status", "ok", "id", 7)));

    assertThat(csv).startsWith("id,group,status,attempts,device,duration_ms,param.status,result.id,result.status\r\n"
        + "t,g,SUCCEEDED,1,cpu,1000,x,7,ok\r\n");
  }
}

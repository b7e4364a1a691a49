package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.core.lifecycle.ClusterAccounting;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskHistory;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A Slurm job's accounting, as the attempt's history records it, in report.json, report.md, report.html and
 * results.csv.
 */
class SlurmAccountingReportTest {

  private static final Instant T0 = SampleRun.T0;

  /** Submitted at 0 s, started by Slurm at 40 s, ended at 41 s; Berth saw the end at 99 s. */
  private static AttemptReport slurmAttempt() {
    TaskHistory h = new TaskHistory(TaskId.of("m1"));
    h.append(new TaskEvent.Released(T0));
    h.append(new TaskEvent.Launched(T0, 1, Placement.cpu(100L << 20, 1000), -1, false));
    h.append(new TaskEvent.Submitted(T0, 1, "23_1"));
    h.append(new TaskEvent.Accounted(T0.plusSeconds(99), 1, new ClusterAccounting("23_1", "COMPLETED",
        Optional.of(T0), Optional.of(T0.plusSeconds(40)), Optional.of(T0.plusSeconds(41)),
        Optional.of(Duration.ofSeconds(1)), "node7", "0:0")));
    h.append(new TaskEvent.Ended(T0.plusSeconds(99), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED,
        new MeasuredUsage(OptionalLong.of(52_428_800), OptionalDouble.of(0.5), OptionalLong.empty(), true)));
    return AttemptReport.of(h.attempts().get(0), h.events());
  }

  private static RunReport run() {
    TaskReport t = new TaskReport("m1", "g", TaskStatus.SUCCEEDED, List.of("true"), "g/m1", new TreeMap<>(), null,
        List.of(slurmAttempt()));
    return SampleRun.single(t);
  }

  @Test
  void theAttemptRunsFromSlurmsStartToItsEndWithTheQueueWaitApart() {
    AttemptReport a = slurmAttempt();

    assertThat(a.startedAt()).isEqualTo(T0.plusSeconds(40));
    assertThat(a.finishedAt()).isEqualTo(T0.plusSeconds(41));
    assertThat(a.cluster().queueWaitMs()).isEqualTo(40_000L);
    assertThat(a.cluster().nodes()).isEqualTo("node7");
    assertThat(a.cluster().maxRssBytes()).isEqualTo(52_428_800L);
  }

  @Test
  void reportJsonCarriesTheJobsAccounting() throws Exception {
    JsonNode attempt = new ObjectMapper().readTree(ReportJson.toJson(run()))
        .path("groups").get(0).path("tasks").get(0).path("attempts").get(0);

    assertThat(attempt.path("startedAt").asText()).isEqualTo("2026-03-01T09:00:40.000Z");
    JsonNode cluster = attempt.path("cluster");
    assertThat(cluster.path("jobId").asText()).isEqualTo("23_1");
    assertThat(cluster.path("state").asText()).isEqualTo("COMPLETED");
    assertThat(cluster.path("nodes").asText()).isEqualTo("node7");
    assertThat(cluster.path("submittedAt").asText()).isEqualTo("2026-03-01T09:00:00.000Z");
    assertThat(cluster.path("queueWaitMs").asLong()).isEqualTo(40_000L);
    assertThat(cluster.path("elapsedMs").asLong()).isEqualTo(1_000L);
    assertThat(cluster.path("maxRssBytes").asLong()).isEqualTo(52_428_800L);
    assertThat(cluster.path("totalCpuSeconds").asDouble()).isEqualTo(0.5);
    assertThat(cluster.path("exitCode").asText()).isEqualTo("0:0");
  }

  @Test
  void resultsCsvCarriesTheLastJobsIdStateNodeQueueWaitAndMaxRss() {
    String[] lines = CsvResults.render(run(), java.util.Map.of()).split("\r\n");

    assertThat(lines[0]).isEqualTo("id,group,status,attempts,device,duration_ms,job_id,job_state,nodes,queue_wait_ms,"
        + "max_rss_bytes");
    assertThat(lines[1]).isEqualTo("m1,g,SUCCEEDED,1,cpu,1000,23_1,COMPLETED,node7,40000,52428800");
  }

  @Test
  void reportMdListsEachSlurmJob() {
    String md = MarkdownReport.render(run());

    assertThat(md).contains("## Slurm jobs")
        .contains("| m1 | 1 | 23_1 | COMPLETED | node7 | 2026-03-01T09:00:00.000Z | 40.0s | 2026-03-01T09:00:40.000Z | 1.0s | 50 MiB"
            + " | 0.5 s | 0:0 |");
  }

  @Test
  void reportHtmlListsEachSlurmJobInASectionTheNavigationLinks() {
    String html = HtmlReport.render(run(), HtmlOptions.defaults());

    assertThat(html).contains("<a href=\"#slurm-jobs\">Slurm jobs</a>")
        .contains("<section id=\"slurm-jobs\"><h2>Slurm jobs</h2>")
        .contains("<tr><td>m1</td><td>1</td><td>23_1</td><td>COMPLETED</td><td>node7</td>"
            + "<td>2026-03-01T09:00:00.000Z</td><td>40.0s</td><td>2026-03-01T09:00:40.000Z</td><td>1.0s</td>"
            + "<td>50 MiB</td><td>0.5 s</td><td>0:0</td></tr>");
  }

  @Test
  void aLocalRunsReportsHaveNoneOfIt() throws Exception {
    RunReport local = SampleRun.report();

    assertThat(ReportJson.toJson(local)).doesNotContain("\"cluster\"");
    assertThat(CsvResults.render(local, SampleRun.results())).doesNotContain("job_id");
    assertThat(MarkdownReport.render(local)).doesNotContain("Slurm jobs");
    assertThat(HtmlReport.render(local, HtmlOptions.defaults())).doesNotContain("slurm-jobs").doesNotContain("Slurm jobs");
  }
}

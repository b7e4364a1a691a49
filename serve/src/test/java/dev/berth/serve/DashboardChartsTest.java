package dev.berth.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.report.Totals;
import dev.berth.report.HtmlOptions;
import dev.berth.report.HtmlReport;
import dev.berth.report.RunCharts;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class DashboardChartsTest {

  private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
  private static final String EVIL = "<script>alert(1)</script>";

  @Test
  void theDashboardReceivesTheSameChartsReportHtmlInlinesForARun() throws Exception {
    RunReport run = run(
        task("make-data", TaskStatus.SUCCEEDED, attempt(1, 0, 20, "cpu", 0, "SUCCEEDED")),
        task("train-" + EVIL, TaskStatus.FAILED, attempt(1, 20, 50, "cuda:0", 3L << 30, "GPU_OOM"),
            attempt(2, 60, 140, "cuda:0", 4L << 30, "FAILED")));

    JsonNode charts = RunApi.JSON.readTree(RunApi.JSON.writeValueAsString(RunApi.charts(run))).get("charts");
    String html = HtmlReport.render(run, HtmlOptions.defaults());

    assertThat(charts).extracting(c -> c.get("id").asText()).containsExactly("timeline", "memory");
    for (JsonNode chart : charts) {
      String svg = chart.get("svg").asText();
      assertThat(svg).startsWith("<svg").doesNotContain(EVIL);
      assertThat(html).as("report.html's %s chart", chart.get("id").asText())
          .contains("<section id=\"" + chart.get("id").asText() + "\"><h2>" + chart.get("title").asText() + "</h2>")
          .contains("<div class=\"chart\">" + svg + "</div>");
      for (JsonNode legend : chart.get("legend")) {
        assertThat(html).contains("background:" + legend.get("colour").asText() + "\"></i>"
            + legend.get("label").asText().replace("<", "&lt;").replace(">", "&gt;") + "</span>");
      }
    }
    assertThat(charts.get(1).get("legend")).extracting(l -> l.get("label").asText())
        .containsExactly("host memory · peak 1 GiB", "GPU memory on cuda:0 · peak 4 GiB");
  }

  @Test
  void aRunWithoutAnAttemptHasNoChartToDraw() {
    RunReport run = run(task("waiting", TaskStatus.PENDING));

    assertThat(RunApi.charts(run).get("charts")).isEmpty();
  }

  @Test
  void theChartsStyleSheetIsTheOneReportHtmlInlines() {
    assertThat(Assets.type("charts.css")).hasValue("text/css; charset=utf-8");
    assertThat(new String(Assets.read("charts.css"), StandardCharsets.UTF_8)).isEqualTo(RunCharts.CSS);
    assertThat(HtmlReport.render(run(), HtmlOptions.defaults())).contains(RunCharts.CSS);
    assertThat(new String(Assets.read("index.html"), StandardCharsets.UTF_8))
        .contains("/assets/charts.css").doesNotContain("charts.js");
  }

  private static RunReport run(TaskReport... tasks) {
    List<TaskReport> all = List.of(tasks);
    GroupReport g = new GroupReport("g", Totals.of(all), all);
    return new RunReport("charts", RunStatus.FAILED, T0, T0.plusSeconds(150), g.totals(), List.of(g));
  }

  private static TaskReport task(String id, TaskStatus status, AttemptReport... attempts) {
    return new TaskReport(id, "g", status, List.of("true"), "g/" + id, new TreeMap<>(), null, List.of(attempts));
  }

  private static AttemptReport attempt(int number, long from, long to, String device, long gpu, String outcome) {
    return new AttemptReport(number, T0.plusSeconds(from), T0.plusSeconds(to), 0, device, 100 + number, 1L << 30,
        gpu, 1.0, outcome, null);
  }
}

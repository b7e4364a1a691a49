package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskStatus;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class HtmlReportTest {

  private final RunReport report = SampleRun.report();
  private final String html = HtmlReport.render(report,
      HtmlOptions.defaults().withResults(SampleRun.taskResults()).withObjective(Objective.max("val_acc")));

  @Test
  void anErrorContainingScriptIsEscapedInTheHtml() {
    assertThat(html).doesNotContainIgnoringCase("<script")
        .contains("&lt;script&gt;alert(1)&lt;/script&gt; | broken &quot;pipe&quot; &amp; &#39;quote&#39;");
  }

  @Test
  void aTaskIdContainingScriptIsEscapedEverywhereItAppears() throws Exception {
    HtmlDoc doc = HtmlDoc.parse(html);

    assertThat(doc.all("//td[@class='id']")).extracting(Element::getTextContent).contains(SampleRun.EVIL_ID);
    assertThat(doc.all("//svg[@class='timeline']//title")).extracting(Element::getTextContent)
        .contains(SampleRun.EVIL_ID + " · attempt 1 · FAILED, exit 2 · 5.0s");
    assertThat(html).doesNotContain(SampleRun.EVIL_ID);
  }

  @Test
  void thePageHasNoScriptAndFetchesNothing() {
    assertThat(html).doesNotContainIgnoringCase("<script").doesNotContain("src=", "@import", "url(");
    assertThat(html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "")).doesNotContain("http");
  }

  @Test
  void eachGroupHasItsSuccessAndFailureTables() throws Exception {
    HtmlDoc doc = HtmlDoc.parse(html);

    assertThat(doc.all("//section[@class='group']/div/h2")).extracting(Element::getTextContent)
        .containsExactly("prepare", "train", "evaluate");
    assertThat(doc.all("//section[@id='group-2']//table[@class='success']/tbody/tr")).hasSize(3);
    assertThat(doc.all("//section[@id='group-2']//table[@class='failures']/tbody/tr")).hasSize(1);
    assertThat(doc.all("//section[@id='group-1']//table[@class='failures']")).isEmpty();
    assertThat(doc.all("//section[@id='group-3']//table[@class='success']")).isEmpty();
  }

  @Test
  void theSuccessTableShowsResultsAndStageTimesWhenKnownOtherwiseTheRunTime() throws Exception {
    HtmlDoc doc = HtmlDoc.parse(html);

    assertThat(doc.all("//section[@id='group-2']//table[@class='success']//th")).extracting(Element::getTextContent)
        .containsExactly("task", "train_acc", "val_acc", "load time", "train time", "attempts", "logs");
    assertThat(HtmlDoc.cells(doc.all("//section[@id='group-2']//table[@class='success']/tbody/tr").get(1)))
        .containsExactly("train-0.1-2", "0.97", "0.9400", "1.4s", "2m05s", "2", "stdout stderr");
    assertThat(doc.all("//section[@id='group-1']//table[@class='success']//th")).extracting(Element::getTextContent)
        .containsExactly("task", "notes", "rows", "run time", "attempts", "logs");
  }

  @Test
  void aFailureShowsItsMessageInAPreAndLinksToItsLogsRelativeToTheReport() throws Exception {
    HtmlDoc doc = HtmlDoc.parse(html);
    Element row = doc.all("//section[@id='group-2']//table[@class='failures']/tbody/tr").get(0);

    assertThat(row.getElementsByTagName("pre").item(0).getTextContent()).isEqualTo(SampleRun.NAN_ERROR);
    assertThat(doc.all("//section[@id='group-2']//table[@class='failures']//a")).extracting(a -> a.getAttribute("href"))
        .containsExactly("train/train-0.01-2/stdout.log", "train/train-0.01-2/stderr.log");
    assertThat(doc.all("//section[@id='group-3']//table[@class='failures']//a")).extracting(a -> a.getAttribute("href"))
        .containsExactly("evaluate/eval-%3Cscript%3Ealert%281%29%3C%2Fscript%3E/stdout.log",
            "evaluate/eval-%3Cscript%3Ealert%281%29%3C%2Fscript%3E/stderr.log");
  }

  @Test
  void aTaskThatNeverStartedHasNoLogLinks() throws Exception {
    Element row = HtmlDoc.parse(html).all("//section[@id='group-3']//table[@class='failures']/tbody/tr").get(1);

    assertThat(HtmlDoc.cells(row)).containsExactly("summarize", "UNREACHABLE", "never started", "0",
        "needs " + SampleRun.EVIL_ID + ", which failed", "none");
  }

  @Test
  void theTimelineIsOneSvgWithOneRectPerAttempt() throws Exception {
    HtmlDoc doc = HtmlDoc.parse(html);
    long attempts = report.groups().stream().flatMap(g -> g.tasks().stream()).mapToLong(t -> t.attempts().size()).sum();

    assertThat(doc.all("//svg[@class='timeline']")).hasSize(1);
    assertThat(doc.all("//svg[@class='timeline']//rect")).hasSize((int) attempts).hasSize(7);
    assertThat(doc.all("//svg[@class='timeline']//text[@class='lane']")).extracting(Element::getTextContent)
        .containsExactly("cpu · 1", "cpu · 2", "cuda:0 · 1", "cuda:0 · 2");
  }

  @Test
  void timelineBarsAreColouredByOutcome() throws Exception {
    List<Element> rects = HtmlDoc.parse(html).all("//svg[@class='timeline']//rect");

    assertThat(rects).filteredOn(r -> r.getTextContent().contains("HOST_OOM"))
        .singleElement().extracting(r -> r.getAttribute("fill")).isEqualTo(Palette.outcome("HOST_OOM"));
    assertThat(rects.stream().map(r -> r.getAttribute("fill")).distinct())
        .containsExactlyInAnyOrder(Palette.outcome("SUCCEEDED"), Palette.outcome("FAILED"), Palette.outcome("HOST_OOM"));
  }

  @Test
  void theMemoryChartHasHostMemoryAndOneLinePerGpuDevice() throws Exception {
    HtmlDoc doc = HtmlDoc.parse(html);

    assertThat(doc.all("//svg[@class='memory-chart']")).hasSize(1);
    assertThat(doc.all("//svg[@class='memory-chart']//path[@class='series']"))
        .extracting(p -> p.getAttribute("data-series")).containsExactly("host memory", "GPU memory on cuda:0");
    assertThat(doc.text("//section[@id='memory']//div[@class='legend']")).contains("host memory · peak 6 GiB");
  }

  @Test
  void aRunWithoutGpuMemoryChartsHostMemoryOnly() throws Exception {
    RunReport cpuOnly = SampleRun.single(SampleRun.task("t", "g", TaskStatus.SUCCEEDED, SampleRun.params(), null,
        SampleRun.attempt(1, 0, 60, 0, "cpu", SampleRun.GIB, 0, "SUCCEEDED", null)));

    HtmlDoc doc = HtmlDoc.parse(HtmlReport.render(cpuOnly, HtmlOptions.defaults()));

    assertThat(doc.all("//svg[@class='memory-chart']//path[@class='series']")).hasSize(1);
  }

  @Test
  void theSweepIsRankedBestFirstWithTheObjectiveHighlighted() throws Exception {
    HtmlDoc doc = HtmlDoc.parse(html);

    assertThat(doc.text("//section[@id='sweep']/h2")).isEqualTo("Sweep: best val_acc first");
    List<Element> rows = doc.all("//table[@class='sweep']/tbody/tr");
    assertThat(rows).extracting(r -> HtmlDoc.cells(r).get(1))
        .containsExactly("train-0.1-2 best", "train-0.1-1", "train-0.01-1", "train-0.01-2");
    assertThat(rows.get(0).getAttribute("class")).isEqualTo("best");
    assertThat(doc.text("//div[@class='callout']")).isEqualTo("Best val_acc: 0.9400 from train-0.1-2 (lr=0.1, seed=2)");
  }

  @Test
  void theHeaderShowsStatusTotalsAndTimes() throws Exception {
    HtmlDoc doc = HtmlDoc.parse(html);

    assertThat(doc.text("//h1")).isEqualTo("sweep-demo FAILED");
    assertThat(doc.all("//h1/span").get(0).getAttribute("class")).isEqualTo("badge s-failed");
    assertThat(doc.text("//dl[@class='facts']")).contains("started2026-03-01 09:00:00 UTC", "took5m00s");
    assertThat(doc.all("//time")).extracting(t -> t.getAttribute("datetime"))
        .containsExactly("2026-03-01T09:00:00.000Z", "2026-03-01T09:05:00.000Z");
    assertThat(doc.all("//div[@class='cards']/div")).extracting(Element::getTextContent)
        .startsWith("7tasks", "4succeeded", "2failed", "1unreachable");
  }

  @Test
  void aTitleOrRunNameWithMarkupIsEscaped() {
    String page = HtmlReport.render(report, HtmlOptions.defaults().withTitle("<b onload='x'>"));

    assertThat(page).contains("<title>&lt;b onload=&#39;x&#39;&gt; · FAILED · Berth</title>").doesNotContain("<b ");
  }

  @Test
  void resultWarningsAreShownEscaped() {
    TaskResults results = new TaskResults(java.util.Map.of(), List.of("g/<i>/result.json: malformed"));

    String page = HtmlReport.render(report, HtmlOptions.defaults().withResults(results));

    assertThat(page).contains("<li>g/&lt;i&gt;/result.json: malformed</li>");
  }

  @Test
  void renderingIsPureTheSameInputGivesTheSamePage() {
    String again = HtmlReport.render(report,
        HtmlOptions.defaults().withResults(SampleRun.taskResults()).withObjective(Objective.max("val_acc")));

    assertThat(again).isEqualTo(html);
  }

  @Test
  void numbersInSvgAttributesUseADotWhateverTheLocale() {
    assertThat(Pattern.compile("(x|width)=\"[0-9]+,[0-9]").matcher(html).find()).isFalse();
  }

  @Test
  void aRunWithoutTasksStillRendersAWellFormedPage() throws Exception {
    RunReport empty = new RunReport("empty", dev.berth.core.report.RunStatus.SUCCEEDED, SampleRun.T0,
        SampleRun.T0.plusSeconds(1), dev.berth.core.report.Totals.of(List.of()), List.of());

    HtmlDoc doc = HtmlDoc.parse(HtmlReport.render(empty, HtmlOptions.defaults()));

    assertThat(doc.all("//svg")).isEmpty();
    assertThat(doc.text("//section[@id='timeline']/p")).isEqualTo("No attempt started.");
  }

  @Test
  void aRunStillGoingSaysSoAndDrawsItsRunningAttempt() throws Exception {
    dev.berth.core.report.AttemptReport running = new dev.berth.core.report.AttemptReport(1,
        SampleRun.T0.plusSeconds(5), null, null, "cpu", 9, SampleRun.GIB, 0, 1, "RUNNING", null);
    dev.berth.core.report.TaskReport t = new dev.berth.core.report.TaskReport("live", "g", TaskStatus.PENDING,
        List.of("x"), "g/live", SampleRun.params(), null, List.of(running));
    dev.berth.core.report.GroupReport g = SampleRun.group("g", List.of(t));
    RunReport live = new RunReport("live", dev.berth.core.report.RunStatus.FAILED, SampleRun.T0, null, g.totals(),
        List.of(g));

    HtmlDoc doc = HtmlDoc.parse(HtmlReport.render(live, HtmlOptions.defaults()));

    assertThat(doc.text("//dl[@class='facts']")).contains("endedstill running");
    assertThat(doc.all("//svg[@class='timeline']//rect")).singleElement()
        .satisfies(r -> assertThat(r.getAttribute("fill")).isEqualTo(Palette.outcome("RUNNING")));
    assertThat(MarkdownReport.render(live)).contains("still running");
  }
}

package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A call task's engine is shown beside its device; a Slurm job id is not mistaken for one. */
class EngineShownTest {

  private static TaskReport task(String id, String attemptId) {
    AttemptReport a = new AttemptReport(1, SampleRun.T0, SampleRun.T0.plusSeconds(1), 0, "cpu", 42, attemptId, 0, 0, 1,
        "SUCCEEDED", null, null, null, null);
    return new TaskReport(id, "g", TaskStatus.SUCCEEDED, List.of("x"), "g/" + id, SampleRun.params(), null, List.of(a));
  }

  @Test
  void theMarkdownTablesShowTheEngineBesideTheDevice() {
    RunReport r = SampleRun.single(task("call-1", "fast/engine-2"), task("job-1", "23_1"));

    String md = MarkdownReport.render(r);

    assertThat(md).contains("| call-1 | cpu · fast/engine-2 |").contains("| job-1 | cpu |");
  }

  @Test
  void theTimelinesTooltipNamesTheEngine() {
    RunReport r = SampleRun.single(task("call-1", "fast/engine-2"));

    Timeline.Bar bar = Timeline.of(r).lanes().get(0).bars().get(0);

    assertThat(Timeline.tooltip(bar)).isEqualTo("call-1 · attempt 1 · fast/engine-2 · SUCCEEDED, exit 0 · 1.0s");
  }
}

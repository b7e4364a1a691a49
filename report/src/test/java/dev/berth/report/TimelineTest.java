package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineTest {

  @Test
  void overlappingAttemptsOnTheCpuStackInSeparateLanes() {
    Timeline t = Timeline.of(run(cpu("a", 0, 10), cpu("b", 5, 15), cpu("c", 6, 8)));

    assertThat(t.lanes()).extracting(Timeline.Lane::slot).containsExactly(1, 2, 3);
  }

  @Test
  void aLaneIsReusedOnceItsAttemptHasEnded() {
    Timeline t = Timeline.of(run(cpu("a", 0, 10), cpu("b", 5, 15), cpu("c", 10, 20), cpu("d", 15, 30)));

    assertThat(t.lanes()).hasSize(2);
    assertThat(t.lanes().get(0).bars()).extracting(b -> b.task().id()).containsExactly("a", "c");
    assertThat(t.lanes().get(1).bars()).extracting(b -> b.task().id()).containsExactly("b", "d");
  }

  @Test
  void devicesHaveTheirOwnLanesWithTheCpuFirst() {
    Timeline t = Timeline.of(run(on("g", "cuda:1", 0, 10), on("h", "cuda:0", 0, 10), cpu("c", 0, 10)));

    assertThat(t.lanes()).extracting(Timeline.Lane::device).containsExactly("cpu", "cuda:0", "cuda:1");
  }

  @Test
  void anAttemptStillRunningEndsAtTheEndOfTheReport() {
    AttemptReport running = new AttemptReport(1, SampleRun.T0.plusSeconds(5), null, null, "cpu", 7, 0, 0, 1,
        "RUNNING", null);
    RunReport r = run(new TaskReport("r", "g", TaskStatus.PENDING, List.of("x"), "g/r", SampleRun.params(), null,
        List.of(running)));

    Timeline.Bar bar = Timeline.of(r).lanes().get(0).bars().get(0);

    assertThat(bar.end()).isEqualTo(r.finishedAt());
    assertThat(Timeline.tooltip(bar)).isEqualTo("r · attempt 1 · RUNNING · still running");
  }

  @Test
  void aZeroLengthAttemptStillGetsAVisibleBar() {
    String svg = Timeline.of(run(cpu("a", 0, 100), on("z", "cpu", 50, 50))).svg();

    assertThat(svg).contains("width=\"2.0\"");
  }

  @Test
  void ticksAreRoundAndLabelledCompactly() {
    assertThat(Ticks.time(300_000, 10)).hasSize(11).startsWith(0L, 30_000L);
    assertThat(Ticks.timeLabel(90_000)).isEqualTo("1m30s");
    assertThat(Ticks.timeLabel(7_200_000)).isEqualTo("2h");
    assertThat(Ticks.timeLabel(500)).isEqualTo("500ms");
    assertThat(Ticks.bytesStep(6L << 30, 4)).isEqualTo(2L << 30);
  }

  private static TaskReport cpu(String id, long from, long to) {
    return on(id, "cpu", from, to);
  }

  private static TaskReport on(String id, String device, long from, long to) {
    return SampleRun.task(id, "g", TaskStatus.SUCCEEDED, SampleRun.params(), null,
        SampleRun.attempt(1, from, to, 0, device, 0, 0, "SUCCEEDED", null));
  }

  private static RunReport run(TaskReport... tasks) {
    return SampleRun.single(tasks);
  }
}

package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.TaskStatus;
import org.junit.jupiter.api.Test;

class MemoryChartTest {

  private static final long G = SampleRun.GIB;

  @Test
  void reservedHostMemoryStepsUpAtStartsAndDownAtFinishes() {
    MemoryChart chart = MemoryChart.of(SampleRun.single(
        task("a", 0, 60, 2 * G, 0), task("b", 30, 90, G, 0)));

    assertThat(chart.series()).singleElement().satisfies(s -> assertThat(s.steps()).containsExactly(
        step(0, 2 * G), step(30, 3 * G), step(60, G), step(90, 0)));
  }

  @Test
  void anAttemptEndingWhenAnotherStartsShowsNoFalsePeak() {
    MemoryChart chart = MemoryChart.of(SampleRun.single(task("a", 0, 60, G, 0), task("b", 60, 120, G, 0)));

    assertThat(chart.series().get(0).peak()).isEqualTo(G);
    assertThat(chart.series().get(0).steps()).containsExactly(step(0, G), step(120, 0));
  }

  @Test
  void gpuMemoryIsASeriesPerDeviceOnlyWhenReserved() {
    MemoryChart chart = MemoryChart.of(SampleRun.single(
        onGpu("a", "cuda:0", 0, 60, 3 * G), onGpu("b", "cuda:1", 10, 20, G), task("c", 0, 5, G, 0)));

    assertThat(chart.series()).extracting(MemoryChart.Series::label)
        .containsExactly("host memory", "GPU memory on cuda:0", "GPU memory on cuda:1");
    assertThat(chart.series().get(1).peak()).isEqualTo(3 * G);
    assertThat(chart.series().get(2).steps()).containsExactly(step(0, 0), step(10, G), step(20, 0));
  }

  @Test
  void thePeakAndWhenItWasReachedAreKnown() {
    MemoryChart chart = MemoryChart.of(SampleRun.report());

    assertThat(chart.series().get(0).peak()).isEqualTo(6 * G);
    assertThat(chart.series().get(0).peakAt()).isEqualTo(SampleRun.T0.plusSeconds(25));
  }

  private static MemoryChart.Step step(long s, long bytes) {
    return new MemoryChart.Step(SampleRun.T0.plusSeconds(s), bytes);
  }

  private static dev.berth.core.report.TaskReport task(String id, long from, long to, long mem, long gpu) {
    return SampleRun.task(id, "g", TaskStatus.SUCCEEDED, SampleRun.params(), null,
        SampleRun.attempt(1, from, to, 0, "cpu", mem, gpu, "SUCCEEDED", null));
  }

  private static dev.berth.core.report.TaskReport onGpu(String id, String device, long from, long to, long gpu) {
    return SampleRun.task(id, "g", TaskStatus.SUCCEEDED, SampleRun.params(), null,
        SampleRun.attempt(1, from, to, 0, device, G, gpu, "SUCCEEDED", null));
  }
}

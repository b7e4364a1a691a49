package dev.berth.runtime.gpu;

import static dev.berth.runtime.gpu.Recordings.machine;
import static dev.berth.runtime.gpu.Recordings.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.os.CommandRunner.Result;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NvidiaSmiGpuProbeTest {

  private static final Result MISMATCH = Result.exited(18, read("driver-library-mismatch.txt"));

  @Test
  void aReadingRunsBothQueriesAndAttachesProcesses() {
    ScriptedRunner runner = machine("a100-sxm4-8x");
    NvidiaSmiGpuProbe probe = new NvidiaSmiGpuProbe(runner);

    List<GpuDevice> devices = probe.read();

    assertThat(devices).hasSize(8);
    assertThat(devices.get(2).processes()).hasSize(2);
    assertThat(probe.lastError()).isEmpty();
    assertThat(probe.source()).isEqualTo("nvidia-smi");
    assertThat(runner.calls).containsExactly(NvidiaSmiCsv.QUERY_GPUS, NvidiaSmiCsv.QUERY_COMPUTE_APPS);
    assertThat(runner.timeouts).containsOnly(NvidiaSmiGpuProbe.DEFAULT_TIMEOUT);
  }

  @Test
  void noDevicesWereFoundIsAGoodEmptyReadingWithoutAProcessQuery() {
    ScriptedRunner runner = new ScriptedRunner().answerBoth(Result.exited(6, read("no-devices.txt")));
    NvidiaSmiGpuProbe probe = new NvidiaSmiGpuProbe(runner);

    assertThat(probe.read()).isEmpty();
    assertThat(probe.lastError()).isEmpty();
    assertThat(probe.answered()).isTrue();
    assertThat(runner.calls).containsExactly(NvidiaSmiCsv.QUERY_GPUS);
  }

  @Test
  void aVersionMismatchIsReportedWithTheExitCodeAndFirstLine() {
    NvidiaSmiGpuProbe probe = new NvidiaSmiGpuProbe(new ScriptedRunner().answerBoth(MISMATCH));

    assertThat(probe.read()).isEmpty();
    assertThat(probe.lastError()).contains(
        "nvidia-smi exited with 18: Failed to initialize NVML: Driver/library version mismatch");
    assertThat(probe.answered()).isFalse();
  }

  @Test
  void aFailureAfterAGoodReadingServesTheLastGoodReading() {
    ScriptedRunner runner = machine("rtx3090-2x");
    NvidiaSmiGpuProbe probe = new NvidiaSmiGpuProbe(runner);
    List<GpuDevice> good = probe.read();

    runner.answer(NvidiaSmiCsv.QUERY_GPUS, new Result(-1, "", "", true));
    List<GpuDevice> during = probe.read();

    assertThat(during).isEqualTo(good);
    assertThat(probe.lastError()).contains("nvidia-smi did not answer within 10000 ms");
  }

  @Test
  void theErrorClearsOnTheNextGoodReading() {
    ScriptedRunner runner = new ScriptedRunner().answerBoth(MISMATCH);
    NvidiaSmiGpuProbe probe = new NvidiaSmiGpuProbe(runner);
    probe.read();

    runner.answer(NvidiaSmiCsv.QUERY_GPUS, Result.exited(0, read("laptop-rtx3050.query-gpu.txt")))
        .answer(NvidiaSmiCsv.QUERY_COMPUTE_APPS, Result.exited(0, ""));

    assertThat(probe.read()).hasSize(1);
    assertThat(probe.lastError()).isEmpty();
  }

  @Test
  void aMissingBinaryIsAnErrorNotAnException() {
    NvidiaSmiGpuProbe probe = new NvidiaSmiGpuProbe(new ScriptedRunner());

    assertThat(probe.read()).isEmpty();
    assertThat(probe.lastError()).hasValueSatisfying(e -> assertThat(e)
        .startsWith("nvidia-smi could not be run: Cannot run program \"nvidia-smi\""));
  }

  @Test
  void garbageOutputIsAnErrorNamingTheLine() {
    NvidiaSmiGpuProbe probe = new NvidiaSmiGpuProbe(
        new ScriptedRunner().answer(NvidiaSmiCsv.QUERY_GPUS, Result.exited(0, "0, GPU-a, X, many, 0, 0, 0\n")));

    assertThat(probe.read()).isEmpty();
    assertThat(probe.lastError()).hasValueSatisfying(e -> assertThat(e).contains("line 1"));
  }

  @Test
  void aFailedProcessQueryStillServesTheDevicesWithoutProcesses() {
    ScriptedRunner runner = machine("a100-sxm4-8x")
        .fail(NvidiaSmiCsv.QUERY_COMPUTE_APPS, new IOException("Broken pipe"));
    NvidiaSmiGpuProbe probe = new NvidiaSmiGpuProbe(runner);

    List<GpuDevice> devices = probe.read();

    assertThat(devices).hasSize(8).allMatch(d -> d.processes().isEmpty());
    assertThat(probe.lastError()).contains("processes unknown: nvidia-smi could not be run: Broken pipe");
  }

  @Test
  void aProcessQueryThatExitsNonZeroIsReported() {
    ScriptedRunner runner = machine("a100-mig").answer(NvidiaSmiCsv.QUERY_COMPUTE_APPS, Result.exited(4, "Insufficient Permissions\n"));
    NvidiaSmiGpuProbe probe = new NvidiaSmiGpuProbe(runner);

    assertThat(probe.read()).hasSize(1);
    assertThat(probe.lastError()).contains("processes unknown: nvidia-smi exited with 4: Insufficient Permissions");
  }

  @Test
  void theTimeoutIsPassedToTheRunner() {
    ScriptedRunner runner = machine("laptop-rtx3050");
    new NvidiaSmiGpuProbe(runner, Duration.ofMillis(1500)).read();
    assertThat(runner.timeouts).containsOnly(Duration.ofMillis(1500));
  }

  @Test
  void detectFindsAnAnsweringNvidiaSmi() {
    List<String> problems = new ArrayList<>();
    assertThat(NvidiaSmiGpuProbe.detect(machine("rtx3090-2x"), problems::add)).isPresent();
    assertThat(problems).isEmpty();
  }

  @Test
  void detectGivesUpWithTheReasonWhenNvidiaSmiDoesNotAnswer() {
    List<String> problems = new ArrayList<>();
    assertThat(NvidiaSmiGpuProbe.detect(new ScriptedRunner().answerBoth(MISMATCH), problems::add)).isEmpty();
    assertThat(problems).singleElement().asString().contains("Driver/library version mismatch");
  }
}

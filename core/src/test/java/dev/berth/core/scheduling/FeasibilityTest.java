package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.group;
import static dev.berth.core.scheduling.SchedulingFixtures.unlimited;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.GpuReading;
import dev.berth.core.resources.HostSnapshot;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class FeasibilityTest {

  private static final SchedulerConfig CONFIG = unlimited().build();

  private static TaskSpec.Builder t(String id, String group) {
    return TaskSpec.builder(id, group).command("run", id).cpus(1).memoryBytes(GIB);
  }

  private static HostSnapshot twoCoresAnd(GpuDevice... gpus) {
    return new HostSnapshot(T0, 2, -1, 8 * GIB, 8 * GIB, new TreeMap<>()).withGpus(GpuReading.of(List.of(gpus)));
  }

  private static GpuDevice gpu(int index, long totalGiB) {
    return new GpuDevice(index, "GPU-" + index, "Test GPU", totalGiB * GIB, 0, totalGiB * GIB, -1, true, List.of());
  }

  @Test
  void tasksThatCanNeverFitTheHostOrTheGpusAreNamedWithTheReasonARunWouldFailThemWith() {
    RunState state = new RunState(new RunSpec("r", "out", CONFIG, List.of(
        group("first", t("fine", "first"), t("many-cores", "first").cpus(16)),
        group("second", t("too-big-gpu", "second").gpuMemoryBytes(30 * GIB)
            .after(Dependency.allSucceeded(List.of(TaskId.of("fine")))),
            t("too-much-memory", "second").memoryBytes(64 * GIB)))));

    Map<TaskId, String> never = Feasibility.neverPlaced(new Scheduler(CONFIG), state, twoCoresAnd(gpu(0, 24), gpu(1, 24)), T0);

    assertThat(never.keySet()).extracting(TaskId::value).containsExactly("many-cores", "too-big-gpu", "too-much-memory");
    assertThat(never.get(TaskId.of("many-cores"))).startsWith("can never be placed: cpus on host: asked 16, free 2");
    assertThat(never.get(TaskId.of("too-big-gpu"))).startsWith("can never be placed: gpu-memory on");
    assertThat(never.get(TaskId.of("too-much-memory"))).startsWith("can never be placed: memory on host: asked 64 GiB");
  }

  @Test
  void aGpuTaskOnAMachineWithoutGpusCanNeverBePlaced() {
    RunState state = new RunState(new RunSpec("r", "out", CONFIG, List.of(group("g", t("gpu", "g").gpuMemoryBytes(GIB)))));

    Map<TaskId, String> never = Feasibility.neverPlaced(new Scheduler(CONFIG), state, twoCoresAnd(), T0);

    assertThat(never).containsOnlyKeys(TaskId.of("gpu"));
    assertThat(never.get(TaskId.of("gpu"))).contains("no GPU is available");
  }
}

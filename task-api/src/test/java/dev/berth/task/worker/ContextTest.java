package dev.berth.task.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.task.Device;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContextTest {

  @Test
  void theContextReadsBerthsEnvironment() {
    Map<String, String> env = Map.of(
        "BERTH_TASK_DIR", "/runs/r/train/t-1",
        "BERTH_TASK_ID", "t-1",
        "BERTH_ATTEMPT", "3",
        "BERTH_PARAM_LR", "0.1",
        "BERTH_PARAM_BATCH_SIZE", "32",
        "BERTH_DEP_MAKE_DATA_DIR", "/runs/r/prepare/make-data",
        "BERTH_DEPS_FILE", "/runs/r/train/t-1/berth-deps.json",
        "UNRELATED", "x");

    WorkerContext context = new WorkerContext(env, (k, v) -> {}, new StderrLogger("t-1", System.err));

    assertThat(context.workdir()).isEqualTo(Path.of("/runs/r/train/t-1"));
    assertThat(context.taskId()).isEqualTo("t-1");
    assertThat(context.attempt()).isEqualTo(3);
    assertThat(context.params()).containsExactly(Map.entry("batch_size", "32"), Map.entry("lr", "0.1"));
    assertThat(context.dependencyDirs()).containsExactly(Map.entry("make_data", "/runs/r/prepare/make-data"));
  }

  @Test
  void runByHandTheContextHasDefaults() {
    WorkerContext context = new WorkerContext(Map.of(), (k, v) -> {}, new StderrLogger("local", System.err));

    assertThat(context.workdir()).isEqualTo(Path.of("").toAbsolutePath());
    assertThat(context.taskId()).isEqualTo("local");
    assertThat(context.attempt()).isEqualTo(1);
    assertThat(context.params()).isEmpty();
  }

  @Test
  void itemsArePublishedAndKeptLocally() {
    List<String> published = new ArrayList<>();
    WorkerContext context = new WorkerContext(Map.of(), (k, v) -> published.add(k + "=" + v), null);

    context.setItem("round", 2);

    assertThat(published).containsExactly("round=2");
    assertThat(context.item("round")).isEqualTo(2);
    assertThat(context.item("other")).isNull();
  }

  @Test
  void aDeviceKnowsWhetherItIsTheCpuAndItsIndex() {
    assertThat(Device.cpu().isCpu()).isTrue();
    assertThat(Device.cpu().index()).isEmpty();
    assertThat(new Device("cuda:1").isCpu()).isFalse();
    assertThat(new Device("cuda:1").index()).hasValue(1);
    assertThat(new Device("cuda:x").index()).isEmpty();
    assertThat(new Device("cuda:1")).hasToString("cuda:1");
  }
}

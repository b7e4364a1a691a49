package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.spec.SpecLoader;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** examples/quickstart.yaml and its Java twin describe one and the same run. */
class QuickstartYamlAndJavaTest {

  @Test
  void theQuickstartBuiltFromYamlAndFromJavaIsTheSameRun() throws Exception {
    Path spec = Path.of("..", "examples", "quickstart.yaml").toAbsolutePath().normalize();
    String dir = spec.getParent().toString();
    RunSpec fromYaml = SpecLoader.load(spec, null, null);

    Map<String, List<?>> matrix = new LinkedHashMap<>();
    matrix.put("lr", List.of("0.1", "0.01"));
    matrix.put("seed", List.of(1, 2));
    RunSpec fromJava = Runs.named("quickstart")
        .workdir("berth-out/quickstart")
        .config(SchedulerConfig.builder().set(SchedulerKeys.MAX_PROCESS, 4).build())
        .group(Groups.builder("prepare").memory("256MiB")
            .task(Tasks.command("make-data", "python3", dir + "/quickstart/make_data.py", "--out", "data")))
        .group(Groups.builder("train").memory("256MiB")
            .matrix(Tasks.template("train-{lr}-{seed}", "python3", dir + "/quickstart/train.py", "--lr", "{lr}",
                "--seed", "{seed}").cpus(1), matrix))
        .build();

    assertThat(fromJava).isEqualTo(fromYaml);
    assertThat(Plan.of(fromJava).tasks()).extracting(Plan.Entry::id)
        .containsExactly("make-data", "train-0.1-1", "train-0.1-2", "train-0.01-1", "train-0.01-2");
  }
}

package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MatrixExpansionTest {

  @TempDir Path dir;

  private List<TaskSpec> tasks(String taskYaml) throws SpecException {
    RunSpec run = SpecLoader.load(SpecFiles.write(dir, "spec.yaml", SpecFiles.oneGroup(taskYaml)), null, List.of());
    return run.tasks();
  }

  @Test
  void combinationsFollowKeyOrderWithTheLastKeyVaryingFastest() throws SpecException {
    List<TaskSpec> tasks = tasks("""
        - id: "t-{seed}-{lr}"
          matrix: {lr: [0.1, 0.01], seed: [1, 2, 3]}
          command: [x]
        """);

    assertThat(tasks).<Map<String, String>>extracting(TaskSpec::params).containsExactly(
        Map.of("lr", "0.1", "seed", "1"), Map.of("lr", "0.1", "seed", "2"), Map.of("lr", "0.1", "seed", "3"),
        Map.of("lr", "0.01", "seed", "1"), Map.of("lr", "0.01", "seed", "2"), Map.of("lr", "0.01", "seed", "3"));
    assertThat(tasks).extracting(t -> t.id().value())
        .containsExactly("t-1-0.1", "t-2-0.1", "t-3-0.1", "t-1-0.01", "t-2-0.01", "t-3-0.01");
  }

  @Test
  void eachTaskRemembersTheEntryItWasExpandedFromAndALoneTaskIsItsOwnTemplate() throws SpecException {
    List<TaskSpec> tasks = tasks("""
        - id: "t-{seed}"
          matrix: {seed: [1, 2]}
          command: [x]
        - id: solo
          command: [x]
        """);

    assertThat(tasks).extracting(TaskSpec::template).containsExactly("t-{seed}", "t-{seed}", "solo");
  }

  @Test
  void valuesAreSubstitutedAsWrittenInTheYaml() throws SpecException {
    List<TaskSpec> tasks = tasks("""
        - id: "t-{v}"
          matrix: {v: [0.10, 1, 1e-3, true, adam, "007"]}
          command: [x, "{v}"]
        """);

    assertThat(tasks).extracting(t -> t.command().get(1)).containsExactly("0.10", "1", "1e-3", "true", "adam", "007");
  }

  @Test
  void placeholdersAreFilledInIdCommandAndEnvIncludingGroupEnv() throws SpecException {
    RunSpec run = SpecLoader.load(SpecFiles.write(dir, "spec.yaml", """
        name: run
        groups:
          - name: g
            env: {OUT: "out/{lr}"}
            tasks:
              - id: "fit-{lr}"
                matrix: {lr: [0.5]}
                command: [train, "--lr={lr}", "--tag={lr}-{lr}"]
                env: {LR: "{lr}"}
        """), null, List.of());

    TaskSpec task = run.tasks().get(0);
    assertThat(task.id().value()).isEqualTo("fit-0.5");
    assertThat(task.command()).containsExactly("train", "--lr=0.5", "--tag=0.5-0.5");
    assertThat(task.env()).containsExactly(entry("LR", "0.5"), entry("OUT", "out/0.5"));
    assertThat(task.params()).containsExactly(entry("lr", "0.5"));
  }

  @Test
  void doubledBracesKeepAPlaceholderLiteralAndOtherBracesAreLeftAlone() throws SpecException {
    List<TaskSpec> tasks = tasks("""
        - id: a
          matrix: {n: [1]}
          command: [sh, -c, "echo {{n}} is {n}; awk '{print $1}' f; echo ${{HOME}}"]
        """);

    assertThat(tasks.get(0).command().get(2)).isEqualTo("echo {n} is 1; awk '{print $1}' f; echo ${HOME}");
  }

  @Test
  void aVariableWithOneValueNeedNotAppearInTheId() throws SpecException {
    List<TaskSpec> tasks = tasks("""
        - id: "run-{seed}"
          matrix: {model: [resnet], seed: [1, 2]}
          command: [x, "{model}"]
        """);

    assertThat(tasks).extracting(t -> t.id().value()).containsExactly("run-1", "run-2");
    assertThat(tasks.get(0).params()).containsExactly(entry("model", "resnet"), entry("seed", "1"));
  }

  @Test
  void everyExpandedTaskGetsTheEntrysSettings() throws SpecException {
    List<TaskSpec> tasks = tasks("""
        - id: "t-{i}"
          matrix: {i: [1, 2]}
          command: [x]
          memory: 256MiB
          cpus: 0.25
          priority: 3
        """);

    assertThat(tasks).allSatisfy(t -> {
      assertThat(t.resources().memoryBytes()).isEqualTo(256L << 20);
      assertThat(t.resources().milliCpus()).isEqualTo(250);
      assertThat(t.priority()).isEqualTo(3);
    });
  }

  @Test
  void tasksWithoutAMatrixHaveNoParams() throws SpecException {
    List<TaskSpec> tasks = tasks("- {id: plain, command: [x]}");

    assertThat(tasks).singleElement().satisfies(t -> assertThat(t.params()).isEmpty());
  }

  @Test
  void specDirIsTheAbsoluteFolderOfTheSpecFileAndNotAParam() throws SpecException {
    List<TaskSpec> tasks = tasks("""
        - id: "t-{i}"
          matrix: {i: [1]}
          command: [python3, "{spec_dir}/train.py"]
          env: {DATA: "{spec_dir}/data"}
        """);

    String folder = dir.toAbsolutePath().normalize().toString();
    assertThat(tasks.get(0).command()).containsExactly("python3", folder + "/train.py");
    assertThat(tasks.get(0).env()).containsExactly(entry("DATA", folder + "/data"));
    assertThat(tasks.get(0).params()).containsOnlyKeys("i");
  }
}

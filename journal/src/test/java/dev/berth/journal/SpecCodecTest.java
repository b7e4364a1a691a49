package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.report.SmtpKeys;
import dev.berth.report.SmtpSettings;
import dev.berth.runtime.exec.LocalKeys;
import dev.berth.runtime.exec.LocalSettings;
import dev.berth.testkit.TaskSpecs;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SpecCodecTest {

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
  void everyFieldOfARandomSpecSurvivesTheRoundTrip(long seed) {
    RunSpec spec = new RandomSpecs(seed).run();

    RunSpec back = SpecCodec.decode(SpecCodec.encode(spec, RandomSpecs.ADAPTERS), RandomSpecs.ADAPTERS);

    assertThat(back).isEqualTo(RandomSpecs.withoutPassword(spec));
  }

  @ParameterizedTest
  @ValueSource(longs = {21, 22, 23, 24, 25})
  void theTextIsCanonicalEqualSpecsGiveEqualTextAndDecodingChangesNothing(long seed) {
    RunSpec spec = new RandomSpecs(seed).run();
    String text = SpecCodec.encode(spec, RandomSpecs.ADAPTERS);

    assertThat(SpecCodec.encode(new RandomSpecs(seed).run(), RandomSpecs.ADAPTERS)).isEqualTo(text);
    assertThat(SpecCodec.encode(SpecCodec.decode(text, RandomSpecs.ADAPTERS), RandomSpecs.ADAPTERS)).isEqualTo(text);
    assertThat(text).doesNotContain("\n", " :", ": ");
  }

  @Test
  void theSmtpPasswordIsNeverWritten() {
    SmtpSettings smtp = SmtpSettings.builder().password("hunter2-secret").build();
    RunSpec spec = SmtpKeys.TABLE.into(TaskSpecs.run("r").group("g", TaskSpecs.task("a").build()).build(), smtp);

    String text = SpecCodec.encode(spec, RandomSpecs.ADAPTERS);

    assertThat(text).doesNotContain("hunter2-secret").doesNotContain("\"password\"");
    assertThat(SmtpKeys.TABLE.of(SpecCodec.decode(text, RandomSpecs.ADAPTERS)).password()).isEmpty();
  }

  @Test
  void aSpecWrittenBeforeTheExecutorAndSlurmKeysExistedReadsWithTheirDefaults() {
    RunSpec spec = TaskSpecs.run("r").group("g", TaskSpecs.task("a").build()).build();
    String older = SpecCodec.encode(spec)
        .replaceAll(",?\"executor\":\"local\"", "")
        .replaceAll(",?\"slurm\":\\{[^{}]*\\}", "")
        .replaceAll(",?\"learn-(memory|gpu-memory)\":true", "")
        .replaceAll(",?\"learn-after\":3", "");
    assertThat(older).doesNotContain("executor", "slurm", "learn-");

    assertThat(SpecCodec.decode(older)).isEqualTo(spec);
  }

  @Test
  void theLocalExecutorsKeysAreStoredInTheSchedulerSectionAsBeforeAndReadBackIntoItsOwnTable() {
    RunSpec plain = TaskSpecs.run("r").group("g", TaskSpecs.task("a").build()).build();
    LocalSettings local = LocalSettings.builder().enforceMemory(true).logCapBytes(2L << 20).build();

    String text = SpecCodec.encode(LocalKeys.TABLE.into(plain, local), RandomSpecs.ADAPTERS);
    RunSpec back = SpecCodec.decode(text, RandomSpecs.ADAPTERS);

    assertThat(text).contains("\"enforce-memory\":true,\"executor\":\"local\"",
        "\"load-nretry\":3,\"log-cap\":2097152,\"max-per-device\":0").doesNotContain("\"local\":");
    assertThat(LocalKeys.TABLE.of(back)).isEqualTo(local);
    assertThat(back.config()).isEqualTo(plain.config());
    assertThat(SpecCodec.encode(plain, RandomSpecs.ADAPTERS)).as("journaled only when set")
        .doesNotContain("enforce-memory", "log-cap");
  }

  @Test
  void aTaskKeepsItsTemplateAndALoneTaskWritesNone() {
    TaskSpec fromMatrix = TaskSpec.builder("train-1", "train").command("x").template("train-{i}").build();
    TaskSpec alone = TaskSpec.builder("solo", "train").command("x").build();
    RunSpec spec = TaskSpecs.run("r").group("train", fromMatrix, alone).build();

    String text = SpecCodec.encode(spec);

    assertThat(whole(spec)).contains("\"template\":\"train-{i}\"").containsOnlyOnce("\"template\"");
    assertThat(SpecCodec.decode(text).tasks()).extracting(TaskSpec::template).containsExactly("train-{i}", "solo");
  }

  @Test
  void aTaskKeepsItsOwnEnforceMemoryAndATaskThatLeavesItToTheConfigWritesNone() {
    TaskSpec limited = TaskSpec.builder("limited", "g").command("x").enforceMemory(true).build();
    TaskSpec released = TaskSpec.builder("released", "g").command("x").enforceMemory(false).build();
    TaskSpec plain = TaskSpec.builder("plain", "g").command("x").build();
    String onlyPlain = whole(TaskSpecs.run("r").group("g", plain).build());
    RunSpec spec = TaskSpecs.run("r").group("g", limited, released, plain).build();

    String text = SpecCodec.encode(spec);

    assertThat(occurrences(whole(spec), "\"enforce-memory\"")).as("the config's, and the two tasks' own")
        .isEqualTo(occurrences(onlyPlain, "\"enforce-memory\"") + 2);
    assertThat(text).contains("\"enforce-memory\":true", "\"enforce-memory\":false");
    assertThat(SpecCodec.decode(text).tasks()).extracting(t -> t.find(TaskKeys.ENFORCE_MEMORY))
        .containsExactly(Optional.of(true), Optional.of(false), Optional.empty());
    assertThat(SpecCodec.decode(text)).isEqualTo(spec);
  }

  private static int occurrences(String text, String part) {
    return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
  }

  @Test
  void theJsonUsesTheSpecFilesKeys() {
    TaskSpec task = TaskSpec.builder("train-1", "train").command("python3", "t.py").memoryBytes(1L << 30).cpus(1.5)
        .build();
    RunSpec spec = TaskSpecs.run("r").group("train", task).build();

    String text = SpecCodec.encode(spec);

    assertThat(text).contains("\"scheduler\":{", "\"max-process\":20", "\"utilization-limit\":{",
        "\"remain-limit\":{", "\"groups\":[{\"name\":\"train\",\"task-changes\":[{", "\"memory\":1073741824",
        "\"cpus\":1.5", "\"interval\":\"PT1S\"", "\"timeout\":null", "\"command\":[\"python3\",\"t.py\"]");
  }

  @Test
  void aFieldOfTheWrongTypeIsNamedWithItsPath() {
    String text = SpecCodec.encode(TaskSpecs.run("r").group("g", TaskSpecs.task("a").build()).build())
        .replace("\"memory\":0,\"params\"", "\"memory\":\"lots\",\"params\"");

    assertThatThrownBy(() -> SpecCodec.decode(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("groups[0].tasks[0].memory: 'lots' is not a memory size");
  }

  @Test
  void missingAndUnknownFieldsAreRefused() {
    String text = SpecCodec.encode(TaskSpecs.run("r").group("g", TaskSpecs.task("a").build()).build());

    assertThatThrownBy(() -> SpecCodec.decode(text.replace("\"gpus\":\"auto\",", "")))
        .hasMessage("gpus is missing");
    assertThatThrownBy(() -> SpecCodec.decode(text.replace("\"priority\":0", "\"priority\":0,\"colour\":1")))
        .hasMessage("groups[0].tasks[0].colour is not a known field");
  }

  @Test
  void decodingValidatesWithTheModelsRules() {
    String text = SpecCodec.encode(TaskSpecs.run("r").group("g", TaskSpecs.task("a").build()).build())
        .replace("\"command\":[\"true\"]", "\"command\":[]");

    assertThatThrownBy(() -> SpecCodec.decode(text)).hasMessageContaining("command must not be empty");
  }

  @Test
  void fractionalCoresAreExactToTheThousandth() {
    for (double cpus : List.of(0.0, 0.001, 0.5, 1.0, 2.125, 1000.999)) {
      RunSpec spec = TaskSpecs.run("r").group("g", TaskSpecs.task("a").cpus(cpus).build()).build();

      assertThat(SpecCodec.decode(SpecCodec.encode(spec))).isEqualTo(spec);
    }
  }

  @Test
  void aSweepsLaterTasksAreWrittenAsTheFieldsThatChangedAndReadBackWhole() {
    List<TaskSpec> sweep = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      sweep.add(TaskSpec.builder("t-" + i, "g").command("python3", "train.py", "--seed", Integer.toString(i))
          .params(java.util.Map.of("seed", Integer.toString(i))).template("t-{seed}").memoryBytes(1L << 20).build());
    }
    RunSpec spec = TaskSpecs.run("r").group("g", sweep).build();

    String text = SpecCodec.encode(spec);

    assertThat(text).contains("{\"command\":[\"python3\",\"train.py\",\"--seed\",\"1\"],\"id\":\"t-1\","
        + "\"params\":{\"seed\":\"1\"}}");
    assertThat(text.split("\"memory\":1048576", -1)).hasSize(2);
    assertThat(SpecCodec.decode(text)).isEqualTo(spec);
  }

  @Test
  void aFieldTheTaskBeforeHadAndThisOneLacksIsUnsetByName() {
    TaskSpec templated = TaskSpec.builder("a-1", "g").command("true").template("a-{n}").enforceMemory(true).build();
    TaskSpec plain = TaskSpec.builder("b", "g").command("true").build();
    RunSpec spec = TaskSpecs.run("r").group("g", templated, plain).build();

    String text = SpecCodec.encode(spec);

    assertThat(text).contains("{\"-\":[\"template\",\"enforce-memory\"],\"id\":\"b\"}");
    assertThat(SpecCodec.decode(text)).isEqualTo(spec);
  }

  @Test
  void aSpecWithEveryTaskWrittenWholeAsSchemaVersionOneHoldsItReadsTheSame() {
    RunSpec spec = new RandomSpecs(7).run();
    String whole = CanonicalJson.write(SpecCodec.toJson(spec, RandomSpecs.ADAPTERS));

    assertThat(whole).contains("\"tasks\":[").doesNotContain(TaskChanges.KEY);
    assertThat(SpecCodec.decode(whole, RandomSpecs.ADAPTERS)).isEqualTo(RandomSpecs.withoutPassword(spec));
  }

  @Test
  void aChangeThatUnsetsWhatTheTaskBeforeLacksIsRefusedWithItsPath() {
    RunSpec spec = TaskSpecs.run("r").group("g", TaskSpecs.task("a").build(), TaskSpecs.task("b").build()).build();
    String text = SpecCodec.encode(spec).replace("{\"id\":\"b\"}", "{\"-\":[\"colour\"],\"id\":\"b\"}");

    assertThatThrownBy(() -> SpecCodec.decode(text))
        .hasMessage("groups[0].task-changes[1].- unsets \"colour\", which the task before lacks");
  }

  /** The spec with every task written whole, as a journal of schema version 1 holds it. */
  private static String whole(RunSpec spec) {
    return CanonicalJson.write(SpecCodec.toJson(spec, List.of()));
  }

  @Test
  void theTasksOfASweepReadBackShareTheValuesThatDidNotChange() {
    List<TaskSpec> sweep = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      sweep.add(TaskSpec.builder("t-" + i, "g").command("python3", "train.py").env(java.util.Map.of("A", "1"))
          .params(java.util.Map.of("seed", Integer.toString(i))).set(TaskKeys.RETRY_DELAY, java.time.Duration.ofSeconds(3)).build());
    }

    List<TaskSpec> back = SpecCodec.decode(SpecCodec.encode(TaskSpecs.run("r").group("g", sweep).build())).tasks();

    assertThat(back).isEqualTo(sweep);
    assertThat(back.get(2).command()).isSameAs(back.get(0).command());
    assertThat(back.get(2).retry().delay()).isSameAs(back.get(0).retry().delay());
    assertThat(back.get(2).params()).isNotEqualTo(back.get(0).params());
    assertThat(back.get(2).env()).isEqualTo(java.util.Map.of("A", "1"));
  }

  @Test
  void aMatrixTaskThatChangesOnlyItsIdAndParametersReadsAsTheTaskBeforeWithThoseTwo() {
    List<TaskSpec> tasks = new java.util.ArrayList<>();
    for (int i = 0; i < 4; i++) {
      tasks.add(TaskSpec.builder("t-" + i, "g").command("true").env(java.util.Map.of("A", "1"))
          .params(java.util.Map.of("i", Integer.toString(i))).template("t-{i}").set(TaskKeys.RETRIES, 2).build());
    }
    tasks.add(TaskSpec.builder("own-1", "g").command("true").build());
    tasks.add(TaskSpec.builder("own-2", "g").command("true").build()); // changes only its id, is its own template
    RunSpec spec = TaskSpecs.run("r").group("g", tasks).build();
    String text = SpecCodec.encode(spec);

    List<TaskSpec> back = SpecCodec.decode(text).tasks();

    assertThat(text).contains("{\"id\":\"t-2\",\"params\":{\"i\":\"2\"}}").contains("{\"id\":\"own-2\"}");
    assertThat(back).isEqualTo(spec.tasks());
    assertThat(back).extracting(TaskSpec::template).containsExactly("t-{i}", "t-{i}", "t-{i}", "t-{i}", "own-1", "own-2");
    assertThat(back.get(3).command()).isSameAs(back.get(1).command());
  }

  @Test
  void aMatrixTaskWhoseChangedIdIsInvalidIsRefusedAsAnyTaskIs() {
    List<TaskSpec> tasks = List.of(TaskSpecs.task("t-0").build(), TaskSpecs.task("t-1").build());
    String text = SpecCodec.encode(TaskSpecs.run("r").group("g", tasks).build()).replace("\"t-1\"", "\"t 1\"");

    assertThatThrownBy(() -> SpecCodec.decode(text)).hasMessageContaining("task id 't 1'");
  }
}

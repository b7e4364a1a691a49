package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.berth.core.model.PoolKeys;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.pool.WorkerScheme;
import dev.berth.protocol.pool.EngineHelper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A spec's pools and call tasks become tasks whose command runs the call and whose variables name the pool. */
class PoolSpecReadingTest {

  @TempDir Path dir;

  private RunSpec load(String spec) throws SpecException {
    return SpecLoader.load(SpecFiles.write(dir, "spec.yaml", spec), null, List.of());
  }

  private static String withPool(String pool, String tasks) {
    return "name: run\npools:\n" + pool.indent(2) + "groups:\n  - name: main\n    tasks:\n" + tasks.stripTrailing().indent(6);
  }

  @Test
  void aCallTaskRunsTheHelpersCallWithTheMatrixValuesTypedAndItsParams() throws Exception {
    RunSpec run = load(withPool("fast: {size: 2, hwm: 3, recycle-after: 50, recycle-memory: 1GiB, scheme: lru,"
        + " setup: model:load, python: python3.11}",
        "- {id: 'fit-{lr}-{opt}', call: 'train.tasks:fit', pool: fast, matrix: {lr: [0.10, 2], opt: [adam]},"
            + " params: {epochs: 3, tags: [a, b], note: 'lr {lr}', on: true}}"));

    TaskSpec first = run.tasks().get(0);
    assertThat(first.id().value()).isEqualTo("fit-0.10-adam");
    assertThat(first.command()).containsExactly("python3.11", "-u", EngineHelper.file().toString(), "call",
        "train.tasks:fit",
        "{\"lr\":0.10,\"opt\":\"adam\",\"epochs\":3,\"tags\":[\"a\",\"b\"],\"note\":\"lr 0.10\",\"on\":true}",
        "--path", dir.toAbsolutePath().normalize().toString());
    assertThat(first.env()).isEmpty();
    assertThat(first.get(TaskKeys.POOL))
        .isEqualTo(PoolSpec.builder("fast").set(PoolKeys.SETUP, "model:load").set(PoolKeys.SIZE, 2)
            .set(PoolKeys.HWM, 3).set(PoolKeys.RECYCLE_AFTER, 50).set(PoolKeys.RECYCLE_MEMORY, 1L << 30)
            .set(PoolKeys.SCHEME, WorkerScheme.LRU).build());
    assertThat(run.tasks().get(1).command().get(5)).startsWith("{\"lr\":2,");
  }

  @Test
  void aCallTaskWithoutAPoolRunsAsAProcessOfItsOwn() throws Exception {
    RunSpec run = load(SpecFiles.oneGroup("- {id: one, call: 'tiny:f', params: {x: 1}}"));

    TaskSpec task = run.tasks().get(0);
    assertThat(task.command()).startsWith("python3", "-u", EngineHelper.file().toString(), "call", "tiny:f", "{\"x\":1}");
    assertThat(task.get(TaskKeys.POOL)).isNull();
  }

  @Test
  void aPoolWithNothingSetHasTheDefaults() throws Exception {
    RunSpec run = load(withPool("p:", "- {id: one, call: 'tiny:f', pool: p}"));

    assertThat(run.tasks().get(0).get(TaskKeys.POOL)).isEqualTo(PoolSpec.named("p"));
    assertThat(PoolSpec.named("p").hwm()).as("auto").isZero();
  }

  @Test
  void aHighWaterMarkIsAutoOrAWholeNumber() throws Exception {
    RunSpec run = load(withPool("p: {hwm: auto}", "- {id: one, call: 'tiny:f', pool: p}"));

    assertThat(run.tasks().get(0).get(TaskKeys.POOL).hwm()).isZero();
    SpecException many = refused(withPool("p: {hwm: many}", "- {id: one, call: 'tiny:f', pool: p}"));
    assertThat(many.field()).isEqualTo("pools.p.hwm");
    assertThat(many.rule()).contains("must be auto or a whole number >= 1");
  }

  @Test
  void anUnknownPoolIsRefusedNamingThePoolsThereAre() {
    SpecException e = refused(withPool("a: {}\nb: {}", "- {id: one, call: 'tiny:f', pool: c}"));

    assertThat(e.field()).isEqualTo("groups[0].tasks[0].pool");
    assertThat(e.rule()).contains("'c' is not a pool", "pools: defines a, b");
  }

  @Test
  void poolAndParamsWithoutACallAreRefused() {
    assertThat(refused(SpecFiles.oneGroup("- {id: one, command: [x], pool: p}")).rule())
        .contains("only applies to a call or java task");
    assertThat(refused(SpecFiles.oneGroup("- {id: one, command: [x], params: {a: 1}}")).field())
        .isEqualTo("groups[0].tasks[0].params");
  }

  @Test
  void aCallWithACommandIsRefused() {
    SpecException e = refused(SpecFiles.oneGroup("- {id: one, command: [x], call: 'a:b'}"));

    assertThat(e.field()).isEqualTo("groups[0].tasks[0].command");
    assertThat(e.rule()).contains("one of command, java and call");
  }

  @Test
  void aCallThatIsNoFunctionIsRefused() {
    assertThat(refused(SpecFiles.oneGroup("- {id: one, call: 'tiny.f'}")).rule())
        .contains("is not a function; write package.module:function");
  }

  @Test
  void badPoolSettingsAreRefusedWhereTheyAreWritten() {
    String task = "- {id: one, call: 'tiny:f', pool: p}";
    assertThat(refused(withPool("p: {size: none}", task)).field()).isEqualTo("pools.p.size");
    assertThat(refused(withPool("p: {size: none}", task)).rule()).contains("must be auto or a whole number >= 1");
    assertThat(refused(withPool("p: {hwm: 0}", task)).field()).isEqualTo("pools.p.hwm");
    assertThat(refused(withPool("p: {scheme: fastest}", task)).rule()).contains("leastload");
    assertThat(refused(withPool("p: {recycle-memory: lots}", task)).field()).isEqualTo("pools.p.recycle-memory");
    assertThat(refused(withPool("p: {sizes: 2}", task)).field()).isEqualTo("pools.p.sizes");
    assertThat(refused(withPool("p: {setup: nothing}", task)).field()).isEqualTo("pools.p.setup");
  }

  @Test
  void aJavaTaskOfAJavaPoolRunsItsWorkerCommandInThatPoolAndWithoutTheTwoStageProtocol() throws Exception {
    RunSpec run = load(withPool("jvm: {language: java, setup: 'com.example.Warm::load', size: 2, memory: 2GiB}",
        "- {id: one, java: com.example.Train, classpath: [classes], pool: jvm}"));

    TaskSpec task = run.tasks().get(0);
    assertThat(task.command()).contains(EngineHelper.JAVA_WORKER).endsWith("com.example.Train");
    assertThat(task.twoStage()).isFalse();
    assertThat(task.env()).isEmpty();
    assertThat(task.get(TaskKeys.POOL))
        .isEqualTo(PoolSpec.builder("jvm").set(PoolKeys.SETUP, "com.example.Warm::load").set(PoolKeys.SIZE, 2)
            .set(PoolKeys.MEMORY, 2L << 30).build());
  }

  @Test
  void aTaskInAPoolOfTheOtherLanguageIsRefusedAtItsPool() {
    SpecException java = refused(withPool("py: {}", "- {id: one, java: com.example.Train, pool: py}"));
    assertThat(java.field()).isEqualTo("groups[0].tasks[0].pool");
    assertThat(java.rule()).contains("'py' is a python pool; a java: task needs a pool with language: java");

    SpecException call = refused(withPool("jvm: {language: java}", "- {id: one, call: 'tiny:f', pool: jvm}"));
    assertThat(call.field()).isEqualTo("groups[0].tasks[0].pool");
    assertThat(call.rule()).contains("'jvm' is a java pool; a call: task needs a Python pool");
  }

  @Test
  void aJavaPoolsSetupIsAClassOrStaticMethodAndItTakesNoInterpreter() {
    String task = "- {id: one, java: com.example.Train, pool: jvm}";
    SpecException setup = refused(withPool("jvm: {language: java, setup: 'warm:load'}", task));
    assertThat(setup.field()).isEqualTo("pools.jvm.setup");
    assertThat(setup.rule()).contains("com.example.Warm::load");
    assertThat(refused(withPool("jvm: {language: java, python: python3}", task)).field()).isEqualTo("pools.jvm.python");
    assertThat(refused(withPool("jvm: {language: cobol}", task)).rule()).contains("must be python or java");
  }

  private SpecException refused(String spec) {
    return catchThrowableOfType(() -> load(spec), SpecException.class);
  }
}

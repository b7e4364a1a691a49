package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.report.TaskStatus;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.spi.HostProbe;
import dev.berth.testkit.FakeHostProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code map} on a pool runs Python calls and Java tasks in warm engines through the real client. */
class PoolMapTest {

  @TempDir Path dir;

  @Test
  void mappingAPythonFunctionOnAPoolCallsItOncePerInputInOneWarmEngine() throws Exception {
    Files.writeString(dir.resolve("mapped.py"), """
        import os
        def square(x, label="none"):
            return {"sq": x * x, "label": label, "pid": os.getpid(), "engine": os.environ["BERTH_ENGINE"]}
        def echo(input):
            return {"input": input}
        """);
    Pool pool = Pool.python("fast").size(1).hwm(1);
    try (Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build())) {
      List<Map<String, Object>> inputs = List.of(Map.of("x", 2), Map.of("x", 3, "label", "three"));
      MapResults results = berth.map(Tasks.call("sq-{index}", pool, "mapped:square").env("PYTHONPATH", dir.toString()),
          inputs, MapOptions.defaults());
      MapResults bare = berth.map(Tasks.call("bare-{index}", pool, "mapped:echo").env("PYTHONPATH", dir.toString()),
          List.of("word", 7), MapOptions.defaults());

      List<Object> values = results.values();
      assertThat(values).hasSize(2);
      Map<?, ?> first = (Map<?, ?>) values.get(0);
      Map<?, ?> second = (Map<?, ?>) values.get(1);
      assertThat(first.get("sq")).isEqualTo(4);
      assertThat(first.get("label")).isEqualTo("none");
      assertThat(second.get("sq")).isEqualTo(9);
      assertThat(second.get("label")).isEqualTo("three");
      assertThat(first.get("engine")).isEqualTo("fast/engine-1");
      assertThat(second.get("pid")).isEqualTo(first.get("pid"));
      assertThat(bare.values()).containsExactly(Map.of("input", "word"), Map.of("input", 7));
    }
  }

  @Test
  void mappingAJavaTaskOnAJavaPoolRunsEachInputInAWarmJvm() throws Exception {
    Pool pool = Pool.java("jvm").size(1);
    try (Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build())) {
      MapResults results = berth.view(pool).map(SquareTask.class, List.of(Map.of("x", 4), Map.of("x", 5)));

      assertThat(results.values()).containsExactly(Map.of("square", 16), Map.of("square", 25));
      // a call that waited in the pool for the engine started before its engine was known
      assertThat(List.of("map1-0", "map1-1")).extracting(id -> berth.handle(id).orElseThrow().get().report()
          .attempts().get(0).clusterJob()).contains("jvm/engine-1");
    }
  }

  @Test
  void memoryALiveEngineOfAPoolHoldsIsNotAdmittedToOtherTasks() throws Exception {
    Files.writeString(dir.resolve("mapped.py"), "def square(x):\n    return {'sq': x * x}\n");
    FakeHostProbe fake = new FakeHostProbe().cpus(4).totalMemory(8L << 30).availableMemory(4L << 30);
    AtomicReference<CountDownLatch> nextReading = new AtomicReference<>(new CountDownLatch(0));
    HostProbe host = (now, pids) -> {
      HostSnapshot reading = fake.read(now, pids);
      nextReading.get().countDown();
      return reading;
    };
    Pool light = Pool.python("light").size(1);
    Pool held = Pool.python("held").size(1).memory("3GiB");
    try (Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).hostProbe(host)
        .set("scheduler.interval", Duration.ofMillis(200)).build())) {
      TaskResult before = berth.executeTask(call("before", light).memory("2GiB"));
      TaskResult warm = berth.executeTask(call("warm", held));
      CountDownLatch reading = new CountDownLatch(1);
      nextReading.set(reading);
      // the engine's hold counts from the first host reading after it started
      assertThat(reading.await(60, TimeUnit.SECONDS)).isTrue();
      TaskResult after = berth.executeTask(call("after", light).memory("2GiB").queueTimeout(Duration.ofSeconds(2)));

      assertThat(before.succeeded()).as(before.toString()).isTrue();
      assertThat(warm.succeeded()).as(warm.toString()).isTrue();
      assertThat(after.status()).as(after.toString()).isEqualTo(TaskStatus.TIMED_OUT);
      assertThat(after.error()).hasValueSatisfying(e -> assertThat(e).contains("for resources")); // "before" got them
    }
  }

  private TaskBuilder call(String id, Pool pool) {
    return Tasks.call(id, pool, "mapped:square").env("PYTHONPATH", dir.toString()).expand(Map.of("x", "2"));
  }

  @Test
  void aPoolIsCheckedByTheRulesOfTheSpecsPoolKeys() {
    assertThatThrownBy(() -> Pool.python("p").size(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pool p: size must be auto or a whole number >= 1");
    assertThatThrownBy(() -> Pool.java("j").setup("warm:load"))
        .hasMessageContaining("pool j: setup").hasMessageContaining("com.example.Warm::load");
    assertThatThrownBy(() -> Pool.python("p").recycleMemory("lots")).hasMessageContaining("recycle-memory");
    assertThatThrownBy(() -> Tasks.call("c-{index}", Pool.java("j"), "m:f"))
        .hasMessageContaining("pool j is a java pool; a Python function needs a python pool");
    assertThatThrownBy(() -> Tasks.call("c-{index}", Pool.python("p"), "not a function"))
        .hasMessageStartingWith("call ");
    assertThat(Pool.python("p").size(2).scheme("lru").definition().text())
        .isEqualTo("setup= size=2 hwm=0 recycle-after=0 recycle-memory=0 scheme=lru memory=0 gpu-memory=0");
    assertThat(Pool.python("p").hwm(3).autoHwm().definition().hwm()).as("auto").isZero();
    assertThatThrownBy(() -> Pool.python("p").hwm(0)).hasMessageContaining("hwm must be auto or a whole number >= 1");
  }
}

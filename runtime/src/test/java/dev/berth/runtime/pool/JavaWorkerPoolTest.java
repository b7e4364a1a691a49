package dev.berth.runtime.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.PoolKeys;
import dev.berth.core.model.PoolSpec;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.spi.Execution;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Java tasks of a pool run in warm JVMs through the task worker's engine mode, driven as Python engines are. */
class JavaWorkerPoolTest {

  private static final String SETUP = JavaPoolTasks.class.getName() + "::setup";

  @TempDir Path dir;

  private WorkerPoolExecutor executor;
  private PoolCalls calls;

  @BeforeEach
  void start() throws Exception {
    executor = new WorkerPoolExecutor(new LocalProcessExecutor(), Set.of());
    calls = new PoolCalls(dir);
  }

  @AfterEach
  void stop() {
    executor.close();
  }

  private static PoolSpec pool(int recycleAfter) {
    return PoolSpec.builder("j").set(PoolKeys.SETUP, SETUP).set(PoolKeys.SIZE, 1).set(PoolKeys.HWM, 1)
        .set(PoolKeys.RECYCLE_AFTER, recycleAfter).build();
  }

  private int run(PoolSpec spec, String id, Class<?> task, Map<String, String> params) throws Exception {
    PoolCalls.Exit exit = new PoolCalls.Exit();
    executor.launch(calls.javaRequest(spec, id, task, params), exit);
    return exit.await();
  }

  @Test
  void twoCallsRunInOneWarmJvmWhoseSetupRanOnceAndWriteTheirResultMaps() throws Exception {
    PoolSpec spec = pool(0);

    assertThat(run(spec, "a", JavaPoolTasks.Where.class, Map.of("lr", "0.1"))).isZero();
    assertThat(run(spec, "b", JavaPoolTasks.Where.class, Map.of())).isZero();

    assertThat(calls.result("a")).contains("\"calls\":1", "\"setups\":1", "\"task\":\"a\"", "\"device\":\"cpu\"",
        "\"params\":{\"lr\":\"0.1\"}");
    assertThat(calls.result("b")).contains("\"calls\":2", "\"setups\":1", "\"task\":\"b\"");
    assertThat(pidIn(calls.result("a"))).isEqualTo(pidIn(calls.result("b")));
    assertThat(dir.resolve("tasks/a/stdout.log")).content().isEqualTo("out a\n");
    assertThat(executor.engines("j")).containsExactly("j/engine-1");
  }

  @Test
  void aCallThatPrintsNothingLeavesNoLogFilesAsInAPythonEngine() throws Exception {
    PoolSpec spec = pool(0);

    assertThat(run(spec, "quiet", JavaPoolTasks.Quiet.class, Map.of())).isZero();

    try (var files = java.nio.file.Files.list(dir.resolve("tasks/quiet"))) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactly("result.json");
    }
  }

  @Test
  void anExceptionEndsTheCallWithItsStackTraceInStandardErrorAndTheEngineLivesOn() throws Exception {
    PoolSpec spec = pool(0);
    assertThat(run(spec, "first", JavaPoolTasks.Where.class, Map.of())).isZero();

    assertThat(run(spec, "bad", JavaPoolTasks.Boom.class, Map.of())).isEqualTo(1);

    assertThat(calls.stderr("bad")).contains("java.lang.IllegalStateException: it broke", "at " + JavaPoolTasks.Boom.class.getName());
    assertThat(run(spec, "good", JavaPoolTasks.Where.class, Map.of())).isZero();
    assertThat(pidIn(calls.result("good"))).isEqualTo(pidIn(calls.result("first")));
  }

  @Test
  void aMissingTaskClassFailsTheCallSayingSo() throws Exception {
    PoolSpec spec = pool(0);
    PoolCalls.Exit exit = new PoolCalls.Exit();
    var request = calls.javaRequest(spec, "missing", JavaPoolTasks.Where.class, Map.of());
    var argv = new java.util.ArrayList<>(request.command());
    argv.set(argv.size() - 1, "com.example.Missing");
    executor.launch(new dev.berth.spi.LaunchRequest(request.task(), 1, argv, request.env(), request.workdir(),
        request.stdout(), request.stderr(), request.reservation(), 0, java.util.Optional.empty(),
        java.util.Optional.empty()).withPool(request.pool()), exit);

    assertThat(exit.await()).isEqualTo(1);
    assertThat(calls.stderr("missing")).contains("com.example.Missing was not found on the class path");
  }

  @Test
  void anEngineKilledMidTaskEndsTheTaskAsKilledAndTheNextRunsOnAFreshEngine() throws Exception {
    PoolSpec spec = pool(0);
    Path ready = calls.fifo("ready");
    Path gate = calls.fifo("gate");
    PoolCalls.Exit exit = new PoolCalls.Exit();
    Execution running = executor.launch(calls.javaRequest(spec, "victim", JavaPoolTasks.Block.class,
        Map.of("ready", ready.toString(), "gate", gate.toString())), exit);
    long pid = PoolCalls.awaitRunning(ready);
    assertThat(running.pid()).isEqualTo(pid);

    ProcessHandle.of(pid).orElseThrow().destroyForcibly();

    assertThat(exit.await()).isEqualTo(137);
    assertThat(calls.stderr("victim")).contains("engine j/engine-1 exited with 137");
    assertThat(run(spec, "retry", JavaPoolTasks.Where.class, Map.of())).isZero();
    assertThat(calls.result("retry")).contains("\"calls\":1");
    assertThat(pidIn(calls.result("retry"))).isNotEqualTo(pid);
    assertThat(executor.engines("j")).containsExactly("j/engine-2");
  }

  @Test
  void anEngineIsRecycledAfterItsNumberOfTasks() throws Exception {
    PoolSpec spec = pool(2);

    for (String id : new String[] {"c1", "c2", "c3"}) {
      assertThat(run(spec, id, JavaPoolTasks.Where.class, Map.of())).isZero();
    }

    assertThat(pidIn(calls.result("c1"))).isEqualTo(pidIn(calls.result("c2")));
    assertThat(pidIn(calls.result("c3"))).isNotEqualTo(pidIn(calls.result("c2")));
    assertThat(calls.result("c3")).contains("\"calls\":1", "\"setups\":1");
  }

  @Test
  void anEngineWhoseTaskLeaksIsRecycledOnceItsMemoryGrowsPastTheLimit() throws Exception {
    PoolSpec spec = PoolSpec.builder("j").set(PoolKeys.SIZE, 1).set(PoolKeys.HWM, 1)
        .set(PoolKeys.RECYCLE_MEMORY, 270L << 20).build(); // a JVM starts near 40 MiB

    assertThat(run(spec, "leak1", JavaPoolTasks.Leak.class, Map.of())).isZero();
    assertThat(run(spec, "leak2", JavaPoolTasks.Leak.class, Map.of())).isZero();
    assertThat(run(spec, "after", JavaPoolTasks.Where.class, Map.of())).isZero();

    assertThat(pidIn(calls.result("leak1"))).isEqualTo(pidIn(calls.result("leak2")));
    assertThat(pidIn(calls.result("after"))).isNotEqualTo(pidIn(calls.result("leak2")));
    assertThat(executor.engines("j")).containsExactly("j/engine-2");
  }

  private static long pidIn(String result) {
    return Long.parseLong(result.replaceAll("(?s).*\"pid\":(\\d+).*", "$1"));
  }
}

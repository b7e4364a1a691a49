package dev.berth.runtime.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.PoolKeys;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.pool.WorkerScheme;
import dev.berth.spi.Execution;
import dev.berth.spi.GpuProbe;
import dev.berth.spi.HostProbe;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeGpuProbe;
import dev.berth.testkit.FakeHostProbe;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pool calls run in warm Python engines, which die, time out and are recycled as the pool says. */
class WorkerPoolExecutorTest {

  @TempDir Path dir;

  private WorkerPoolExecutor executor;
  private PoolCalls calls;

  @BeforeEach
  void start() throws Exception {
    executor = PoolCalls.executor(dir); // no helper written yet
    calls = new PoolCalls(dir);
  }

  @AfterEach
  void stop() {
    PoolCalls.stop(executor);
  }

  private static PoolSpec pool(int size, int hwm, int recycleAfter, long recycleMemory) {
    return PoolSpec.builder("p").set(PoolKeys.SETUP, "pooltest:setup").set(PoolKeys.SIZE, size).set(PoolKeys.HWM, hwm)
        .set(PoolKeys.RECYCLE_AFTER, recycleAfter).set(PoolKeys.RECYCLE_MEMORY, recycleMemory).build();
  }

  private int run(PoolSpec spec, String id, String function, String kwargs) throws Exception {
    PoolCalls.Exit exit = new PoolCalls.Exit();
    executor.launch(calls.request(spec, id, function, kwargs), exit);
    return exit.await();
  }

  @Test
  void callsRunOneAfterAnotherInTheSameWarmEngineWhoseSetupRanOnce() throws Exception {
    PoolSpec spec = pool(1, 1, 0, 0);

    assertThat(run(spec, "a", "echo", "{\"lr\": 0.1, \"name\": \"x\"}")).isZero();
    assertThat(run(spec, "b", "echo", "{\"lr\": 0.2}")).isZero();

    assertThat(calls.result("a")).contains("\"lr\": 0.1", "\"name\": \"x\"", "\"engine\": \"p/engine-1\"",
        "\"setups\": 1", "\"task\": \"a\"");
    assertThat(calls.result("b")).contains("\"lr\": 0.2", "\"engine\": \"p/engine-1\"", "\"setups\": 1",
        "\"task\": \"b\"");
    assertThat(pidIn(calls.result("a"))).isEqualTo(pidIn(calls.result("b")));
    assertThat(executor.engines("p")).containsExactly("p/engine-1");
  }

  @Test
  void callsPlacedOnDifferentDevicesRunInEnginesPinnedToEach() throws Exception {
    PoolSpec spec = pool(0, 1, 0, 0);

    for (String id : new String[] {"g0-a", "g1-a", "g0-b"}) {
      PoolCalls.Exit exit = new PoolCalls.Exit();
      String device = id.startsWith("g0") ? "cuda:0" : "cuda:1";
      executor.launch(calls.request(spec, id, "echo", "{}", new Placement(device, 0, 0, 1L << 30)), exit);
      assertThat(exit.await()).isZero();
    }

    assertThat(calls.result("g0-a")).contains("p/engine-1");
    assertThat(calls.result("g1-a")).contains("p/engine-2");
    assertThat(calls.result("g0-b")).contains("p/engine-1");
  }

  @Test
  void aCallTaskWithoutAPoolRunsTheHelperAsAProcessOfItsOwn() throws Exception {
    LaunchRequest pooled = calls.request(pool(1, 1, 0, 0), "alone", "echo", "{\"x\": 2}");
    LaunchRequest alone = new LaunchRequest(pooled.task(), 1, pooled.command(), pooled.env(), pooled.workdir(),
        pooled.stdout(), pooled.stderr());
    PoolCalls.Exit exit = new PoolCalls.Exit();

    executor.launch(alone, exit);

    assertThat(exit.await()).isZero();
    assertThat(calls.result("alone")).contains("\"x\": 2", "\"engine\": null");
    assertThat(executor.engines("p")).isEmpty();
  }

  @Test
  void aCallsOutputGoesToItsOwnLogsNotIntoTheProtocol() throws Exception {
    PoolSpec spec = pool(1, 1, 0, 0);

    assertThat(run(spec, "a", "echo", "{\"k\": 1}")).isZero();

    assertThat(dir.resolve("tasks/a/stdout.log")).content().isEqualTo("out ['k']\n");
  }

  @Test
  void aCallThatRaisesExitsWithOneAndLeavesItsTracebackInItsStandardError() throws Exception {
    PoolSpec spec = pool(1, 1, 0, 0);

    assertThat(run(spec, "bad", "boom", "{}")).isEqualTo(1);

    assertThat(calls.stderr("bad")).contains("Traceback", "in boom", "RuntimeError: it broke");
    assertThat(run(spec, "good", "echo", "{}")).isZero(); // the engine lives on
    assertThat(executor.engines("p")).containsExactly("p/engine-1");
  }

  @Test
  void anEngineKilledMidCallEndsTheCallAsKilledAndTheNextCallGetsAFreshEngine() throws Exception {
    PoolSpec spec = pool(1, 1, 0, 0);
    Path ready = calls.fifo("ready");
    PoolCalls.Exit exit = new PoolCalls.Exit();
    Execution running = executor.launch(calls.request(spec, "victim", "block", "{\"ready\": \"" + ready + "\"}"), exit);
    long pid = PoolCalls.awaitRunning(ready);
    assertThat(running.pid()).isEqualTo(pid);

    ProcessHandle.of(pid).orElseThrow().destroyForcibly();

    assertThat(exit.await()).isEqualTo(137);
    assertThat(calls.stderr("victim")).contains("engine p/engine-1 exited with 137");
    assertThat(run(spec, "next", "echo", "{}")).isZero();
    assertThat(calls.result("next")).contains("\"engine\": \"p/engine-2\"");
    assertThat(pidIn(calls.result("next"))).isNotEqualTo(pid);
  }

  @Test
  void terminatingACallEndsItsEngineWhichIsReplaced() throws Exception {
    PoolSpec spec = pool(0, 1, 0, 0);
    Path ready = calls.fifo("ready");
    PoolCalls.Exit exit = new PoolCalls.Exit();
    Execution running = executor.launch(calls.request(spec, "slow", "block", "{\"ready\": \"" + ready + "\"}"), exit);
    long pid = PoolCalls.awaitRunning(ready);

    running.terminate(30_000);

    assertThat(exit.await()).isEqualTo(143);
    assertThat(running.isAlive()).isFalse();
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(run(spec, "next", "echo", "{}")).isZero();
    assertThat(pidIn(calls.result("next"))).isNotEqualTo(pid);
  }

  @Test
  void anEngineIsRecycledAfterItsNumberOfCalls() throws Exception {
    PoolSpec spec = pool(1, 1, 2, 0);

    for (String id : new String[] {"c1", "c2", "c3"}) {
      assertThat(run(spec, id, "echo", "{}")).isZero();
    }

    assertThat(calls.result("c1")).contains("p/engine-1");
    assertThat(calls.result("c2")).contains("p/engine-1");
    assertThat(calls.result("c3")).contains("p/engine-2", "\"setups\": 1");
  }

  @Test
  void anEngineWhoseMemoryGrowsPastTheLimitIsRecycled() throws Exception {
    PoolSpec spec = pool(1, 1, 0, 120L << 20);

    assertThat(run(spec, "leak1", "grow", "{\"mb\": 70}")).isZero();
    assertThat(run(spec, "leak2", "grow", "{\"mb\": 70}")).isZero();
    assertThat(run(spec, "after", "echo", "{}")).isZero();

    assertThat(pidIn(calls.result("leak1"))).isEqualTo(pidIn(calls.result("leak2")));
    assertThat(calls.result("after")).contains("p/engine-2");
    assertThat(pidIn(calls.result("after"))).isNotEqualTo(pidIn(calls.result("leak2")));
  }

  @Test
  void aCallWaitsForAnEngineWhenThePoolIsFullAndRunsOnceOneIsFree() throws Exception {
    PoolSpec spec = pool(1, 1, 0, 0);
    Path ready = calls.fifo("ready");
    Path gate = calls.fifo("gate");
    PoolCalls.Exit first = new PoolCalls.Exit();
    executor.launch(calls.request(spec, "first", "block",
        "{\"ready\": \"" + ready + "\", \"gate\": \"" + gate + "\"}"), first);
    PoolCalls.awaitRunning(ready);
    PoolCalls.Exit second = new PoolCalls.Exit();

    Execution waiting = executor.launch(calls.request(spec, "second", "echo", "{}"), second);

    assertThat(waiting.pid()).isEqualTo(-1);
    assertThat(waiting.clusterId()).isEmpty();
    assertThat(executor.waiting("p")).isEqualTo(1);
    PoolCalls.open(gate);
    assertThat(first.await()).isZero();
    assertThat(second.awaitStart()).endsWith(" p/engine-1");
    assertThat(second.await()).isZero();
    assertThat(calls.result("second")).contains("p/engine-1");
  }

  @Test
  void belowItsHighWaterMarkAnEngineTakesAnotherCallWhileOneRunsAndRunsThemInTurn() throws Exception {
    PoolSpec spec = pool(1, 2, 0, 0);
    Path ready = calls.fifo("ready");
    Path gate = calls.fifo("gate");
    PoolCalls.Exit first = new PoolCalls.Exit();
    Execution running = executor.launch(calls.request(spec, "first", "block",
        "{\"ready\": \"" + ready + "\", \"gate\": \"" + gate + "\"}"), first);
    PoolCalls.awaitRunning(ready);
    PoolCalls.Exit second = new PoolCalls.Exit();

    Execution queued = executor.launch(calls.request(spec, "second", "echo", "{}"), second);

    assertThat(queued.pid()).as("not begun yet").isEqualTo(-1);
    assertThat(queued.clusterId()).isEmpty();
    assertThat(executor.waiting("p")).as("queued in the engine, not in the pool").isZero();
    PoolCalls.open(gate);
    assertThat(first.await()).isZero();
    assertThat(second.awaitStart()).isEqualTo(running.pid() + " p/engine-1");
    assertThat(second.await()).isZero();
    assertThat(first.toldOfStart()).as("began within its launch, which showed it").isFalse();
  }

  @Test
  void aDependantGoesToTheEngineItsParentRanInWhereTheSchemeWouldChooseAnother() throws Exception {
    PoolSpec spec = PoolSpec.builder("p").set(PoolKeys.SIZE, 2).set(PoolKeys.HWM, 1)
        .set(PoolKeys.SCHEME, WorkerScheme.LRU).build();
    Path ready = calls.fifo("ready");
    Path gate = calls.fifo("gate");
    PoolCalls.Exit blocking = new PoolCalls.Exit();
    executor.launch(calls.request(spec, "busy", "block", "{\"ready\": \"" + ready + "\", \"gate\": \"" + gate + "\"}"),
        blocking);
    PoolCalls.awaitRunning(ready);
    assertThat(run(spec, "parent", "echo", "{}")).isZero(); // engine-1 is busy: a second engine starts
    PoolCalls.open(gate);
    assertThat(blocking.await()).isZero();

    PoolCalls.Exit child = new PoolCalls.Exit();
    executor.launch(calls.dependant(spec, "child", "echo", "parent"), child);
    assertThat(child.await()).isZero();
    assertThat(run(spec, "stranger", "echo", "{}")).isZero();

    assertThat(calls.result("parent")).contains("p/engine-2");
    assertThat(calls.result("child")).contains("p/engine-2"); // lru alone would pick engine-1
    assertThat(calls.result("stranger")).contains("p/engine-1");
  }

  @Test
  void aLiveEngineHoldsItsPoolsMemoryBeyondWhatItWasMeasuredAtAndTheHostReadingCountsItAsUsed() throws Exception {
    PoolSpec spec = PoolSpec.builder("p").set(PoolKeys.SIZE, 1).set(PoolKeys.HWM, 1)
        .set(PoolKeys.MEMORY, 1L << 30).build();
    PoolSpec light = PoolSpec.builder("q").set(PoolKeys.SIZE, 1).set(PoolKeys.HWM, 1).build();
    FakeHostProbe host = new FakeHostProbe().availableMemory(8L << 30);
    HostProbe probe = executor.holding(host);
    assertThat(probe.read(Instant.EPOCH, new TreeMap<>()).availableMemoryBytes()).isEqualTo(8L << 30);

    assertThat(run(spec, "a", "echo", "{}")).isZero();
    assertThat(run(light, "b", "echo", "{}")).isZero();

    long held = executor.heldMemoryBytes();
    assertThat(held).isLessThan(1L << 30).isGreaterThan((1L << 30) - (200L << 20)); // less the engine's resident memory
    assertThat(probe.read(Instant.EPOCH, new TreeMap<>()).availableMemoryBytes()).isEqualTo((8L << 30) - held);
  }

  @Test
  void aLiveEnginePinnedToAGpuHoldsItsPoolsGpuMemoryThereBeyondWhatItsProcessUses() throws Exception {
    PoolSpec spec = PoolSpec.builder("g").set(PoolKeys.HWM, 1).set(PoolKeys.GPU_MEMORY, 3L << 30).build();
    FakeGpuProbe fake = new FakeGpuProbe().device(0, 16).device(1, 16);
    GpuProbe probe = executor.holdingGpus(fake);

    PoolCalls.Exit exit = new PoolCalls.Exit();
    Execution call = executor.launch(calls.request(spec, "on1", "echo", "{}", new Placement("cuda:1", 0, 0, 1L << 30)), exit);
    assertThat(exit.await()).isZero();
    List<GpuDevice> before = probe.read();
    fake.process(1, call.pid(), 1L << 30).used(1, 1L << 30); // the engine's model: 1 GiB in use on its device
    List<GpuDevice> after = probe.read();

    assertThat(before.get(0).freeMemoryBytes()).isEqualTo(16L << 30);
    assertThat(before.get(1).freeMemoryBytes()).isEqualTo(13L << 30);
    assertThat(after.get(1).freeMemoryBytes()).isEqualTo(13L << 30); // 3 GiB held, 1 of them seen by the reading
  }

  @Test
  void eachCallSeesItsOwnVariablesAndNoneACallBeforeItSetOrWasGiven() throws Exception {
    PoolSpec spec = pool(1, 1, 0, 0);
    String names = "{\"names\": [\"BERTH_ONLY_A\", \"SET_BY_A\", \"BERTH_TASK_ID\", \"PATH\"]";

    Map<String, String> kwargs = Map.of("a", names + ", \"set\": \"SET_BY_A\"}", "b", names + ", \"set\": \"PATH\"}",
        "c", names + "}");
    for (String id : new String[] {"a", "b", "c"}) {
      LaunchRequest request = calls.request(spec, id, "envs", kwargs.get(id));
      PoolCalls.Exit exit = new PoolCalls.Exit();
      executor.launch(id.equals("a") ? PoolCalls.withEnv(request, "BERTH_ONLY_A", "yes") : request, exit);
      assertThat(exit.await()).isZero();
    }

    assertThat(calls.result("a")).contains("\"BERTH_ONLY_A\": \"yes\"", "\"SET_BY_A\": \"changed by a call\"", "\"BERTH_TASK_ID\": \"a\"");
    assertThat(calls.result("b")).contains("\"BERTH_ONLY_A\": null", "\"SET_BY_A\": null", "\"BERTH_TASK_ID\": \"b\"",
        "\"PATH\": \"changed by a call\"");
    assertThat(calls.result("c")).contains("\"BERTH_ONLY_A\": null", "\"SET_BY_A\": null", "\"BERTH_TASK_ID\": \"c\"",
        "\"PATH\": \"/").doesNotContain("changed by a call"); // the engine's own PATH again
  }

  @Test
  void aSetupThatFailsFailsTheCallWithTheSetupsTraceback() throws Exception {
    PoolSpec spec = PoolSpec.builder("s").set(PoolKeys.SETUP, "pooltest:boom").set(PoolKeys.SIZE, 1)
        .set(PoolKeys.HWM, 1).build();

    assertThat(run(spec, "x", "echo", "{}")).isEqualTo(1);

    assertThat(calls.stderr("x")).contains("the engine's setup failed", "RuntimeError: it broke");
  }

  private static long pidIn(String result) {
    return Long.parseLong(result.replaceAll("(?s).*\"pid\": (\\d+).*", "$1"));
  }
}

package dev.berth.runtime.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.PoolKeys;
import dev.berth.core.model.PoolSpec;
import dev.berth.spi.Execution;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Calls queued in an engine behind another: skipped when ended first, moved when their engine dies. */
class QueuedPoolCallsTest {

  @TempDir Path dir;

  private WorkerPoolExecutor executor;
  private PoolCalls calls;
  private Path ready;
  private Path gate;

  @BeforeEach
  void start() throws Exception {
    executor = PoolCalls.executor(dir);
    calls = new PoolCalls(dir);
    ready = calls.fifo("ready");
    gate = calls.fifo("gate");
  }

  @AfterEach
  void stop() {
    PoolCalls.stop(executor);
  }

  private static PoolSpec pool(int hwm) {
    return PoolSpec.builder("p").set(PoolKeys.SIZE, 1).set(PoolKeys.HWM, hwm).build();
  }

  /** Launches a call that runs until {@code gate} opens (or forever without one) and waits until it runs. */
  private Execution blocking(PoolSpec spec, String id, PoolCalls.Exit exit, boolean gated) throws Exception {
    String kwargs = "{\"ready\": \"" + ready + "\"" + (gated ? ", \"gate\": \"" + gate + "\"}" : "}");
    Execution e = executor.launch(calls.request(spec, id, "block", kwargs), exit);
    PoolCalls.awaitRunning(ready);
    return e;
  }

  private int run(PoolSpec spec, String id) throws Exception {
    PoolCalls.Exit exit = new PoolCalls.Exit();
    executor.launch(calls.request(spec, id, "echo", "{}"), exit);
    return exit.await();
  }

  @Test
  void aQueuedCallEndedBeforeItsEngineBeganItEndsAtOnceIsSkippedThereAndTheEngineLivesOn() throws Exception {
    PoolSpec spec = pool(2);
    PoolCalls.Exit first = new PoolCalls.Exit();
    Execution running = blocking(spec, "first", first, true);
    PoolCalls.Exit second = new PoolCalls.Exit();
    Execution queued = executor.launch(calls.request(spec, "second", "echo", "{}"), second);

    queued.terminate(30_000);

    assertThat(second.await()).isEqualTo(143);
    assertThat(queued.isAlive()).isFalse();
    assertThat(running.isAlive()).isTrue();
    PoolCalls.open(gate);
    assertThat(first.await()).isZero();
    assertThat(run(spec, "third")).isZero();
    assertThat(calls.result("third")).contains("\"pid\": " + running.pid());
    assertThat(dir.resolve("tasks/second/result.json")).doesNotExist();
    assertThat(second.toldOfStart()).isFalse();
  }

  @Test
  void callsQueuedBehindACallWhoseEngineIsKilledGoToAFreshEngineAndRunWithoutFailing() throws Exception {
    PoolSpec spec = pool(3);
    PoolCalls.Exit first = new PoolCalls.Exit();
    Execution running = blocking(spec, "first", first, false);
    PoolCalls.Exit second = new PoolCalls.Exit();
    PoolCalls.Exit third = new PoolCalls.Exit();
    executor.launch(calls.request(spec, "second", "echo", "{}"), second);
    executor.launch(calls.request(spec, "third", "echo", "{}"), third);

    ProcessHandle.of(running.pid()).orElseThrow().destroyForcibly();

    assertThat(first.await()).isEqualTo(137);
    assertThat(second.await()).isZero();
    assertThat(third.await()).isZero();
    assertThat(second.awaitStart()).endsWith(" p/engine-2");
    assertThat(calls.result("second")).contains("p/engine-2");
    assertThat(calls.result("third")).contains("p/engine-2");
    assertThat(dir.resolve("tasks/second/attempt-1.stderr.log")).as("no word of the dead engine").doesNotExist();
  }

  @Test
  void endingTheRunningCallEndsItsEngineAndTheCallQueuedBehindItRunsInAnother() throws Exception {
    PoolSpec spec = pool(2);
    PoolCalls.Exit first = new PoolCalls.Exit();
    Execution running = blocking(spec, "first", first, false);
    PoolCalls.Exit second = new PoolCalls.Exit();
    executor.launch(calls.request(spec, "second", "echo", "{}"), second);

    running.terminate(30_000);

    assertThat(first.await()).isEqualTo(143);
    assertThat(second.await()).isZero();
    assertThat(calls.result("second")).contains("p/engine-2");
  }

  @Test
  void withAnAutoMarkAnEngineThatAnsweredNoCallYetTakesOneAndTheNextWaitsInThePool() throws Exception {
    PoolSpec spec = pool(0);
    PoolCalls.Exit first = new PoolCalls.Exit();
    blocking(spec, "first", first, true);
    PoolCalls.Exit behind = new PoolCalls.Exit();
    executor.launch(calls.request(spec, "behind", "echo", "{}"), behind);

    assertThat(executor.waiting("p")).isEqualTo(1);
    PoolCalls.open(gate);
    assertThat(first.await()).isZero();
    assertThat(behind.await()).isZero();
  }

  @Test
  void anAutoMarkIsOneWhileTheEnginesLastCallWasLongAndSeveralWhileItWasShort() {
    assertThat(WarmWorker.highWaterMark(3, 0, 9)).isEqualTo(3);
    assertThat(WarmWorker.highWaterMark(0, 0, 0)).isEqualTo(1);
    assertThat(WarmWorker.highWaterMark(0, 5, 0.5)).isEqualTo(1);
    assertThat(WarmWorker.highWaterMark(0, 5, 0.001)).isEqualTo(WarmWorker.AUTO_QUEUE);
  }
}

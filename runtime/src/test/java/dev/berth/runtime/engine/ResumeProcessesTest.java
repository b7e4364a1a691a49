package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.RunStatus;
import dev.berth.runtime.contain.FrozenTaskGroup;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.spi.Executor;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeHostProbe;
import dev.berth.testkit.MemoryJournal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a resumed run makes of the processes of the attempts that were running when Berth died: the
 * task's own process is told from what it left behind, an exit marked while no Berth was alive is
 * the attempt's real ending, a kill Berth made on its way out is an interruption, and what a task
 * left running ends with it.
 */
class ResumeProcessesTest {

  private static final long MIB = 1L << 20;
  private static final long WAIT_SECONDS = 30;

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final FakeHostProbe probe = new FakeHostProbe().cpus(2).totalGiB(16).availableGiB(12).utilization(0.1);
  private final SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.REMAIN_MEMORY, MIB).build();
  private final MemoryJournal journal = new MemoryJournal();

  private RunSpec spec(List<String> command, String... ids) {
    List<TaskSpec> tasks = java.util.stream.Stream.concat(java.util.stream.Stream.of("a"), java.util.Arrays.stream(ids))
        .map(id -> TaskSpec.builder(id, "g").command(command.toArray(String[]::new)).memoryBytes(64 * MIB).cpus(1)
            .set(TaskKeys.RETRIES, 0).build())
        .toList();
    return new RunSpec("r", dir.toString(), config, List.of(new GroupSpec("g", tasks)));
  }

  private Engine engine(RunSpec spec, Executor executor, Journal j) {
    return new Engine(spec, new RunLayout(dir), executor, probe, clock, clock, RunListener.NONE).journal(j);
  }

  private static final TaskId A = TaskId.of("a");

  /** A run whose Berth died (nothing more journalled, no exit marked by it) while task a ran. */
  private Engine crashedWhileARuns(RunSpec spec, Executor executor) {
    journal.start("r", "spec", clock.instant());
    Engine engine = engine(spec, executor, journal);
    engine.start();
    engine.leaveAsCrashed();
    return engine;
  }

  private Engine resumed(RunSpec spec, Executor executor) throws Exception {
    MemoryJournal after = journal.reopen();
    return engine(spec, executor, after).resume(after.replay().orElseThrow());
  }

  @Test
  void aChildThatOutlivedItsTaskIsNeitherAdoptedAsTheTaskNorLeftRunning() throws Exception {
    RunSpec spec = spec(List.of("work"));
    crashedWhileARuns(spec, new FakeExecutor());
    // The task's shell exits, its background child stays, re-parented, with the task's variables.
    Path pidFile = dir.resolve("child.pid");
    ProcessBuilder task = new ProcessBuilder("sh", "-c", "sleep 300 & echo $! > \"$0\"", pidFile.toString()).inheritIO()
        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    taskEnvironment(task.environment(), 1);
    assertThat(task.start().waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    ProcessHandle child = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).orElseThrow();

    FakeExecutor second = new FakeExecutor();
    Engine engine = resumed(spec, second);
    engine.start();

    assertThat(second.transcript()).as("the task runs again; the child is not taken for it").contains("launch a#2");
    assertThat(engine.state().task(A).history().events()).filteredOn(TaskEvent.Ended.class::isInstance)
        .extracting(e -> ((TaskEvent.Ended) e).outcome()).containsExactly(Outcome.INTERRUPTED);
    assertThat(child.onExit()).as("the leftover is killed").succeedsWithin(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @Test
  void anAttemptThatExitedWhileNoBerthWasAliveEndsWithItsOwnExitCodeAndDoesNotRunAgain() throws Exception {
    Path go = fifo("go.fifo");
    Path pidFile = dir.resolve("task.pid");
    // Its parent is the process Berth started: once that is gone, the exit is marked.
    RunSpec spec = spec(List.of("sh", "-c", "echo $PPID > \"$1\"; read x < \"$0\"; exit 0", go.toString(),
        pidFile.toString()));
    LocalProcessExecutor first = new LocalProcessExecutor();
    crashedWhileARuns(spec, first);
    first.close(); // the dead Berth reaps nothing more
    Files.writeString(go, "go\n"); // the task ends, no result.json written, while no Berth is alive
    Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()));
    process.ifPresent(p -> assertThat(p.onExit()).succeedsWithin(WAIT_SECONDS, TimeUnit.SECONDS));

    FakeExecutor second = new FakeExecutor();
    Engine engine = resumed(spec, second);
    engine.start();

    assertThat(second.transcript()).isEmpty();
    assertThat(engine.state().task(A).state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(engine.state().task(A).history().attemptCount()).isEqualTo(1);
  }

  @Test
  void anAdoptedTaskEndsWithItsOwnExitCodeAndWhatItLeftRunningEndsWithIt() throws Exception {
    Path go = fifo("adopted.fifo");
    Path pidFile = dir.resolve("left.pid");
    RunSpec spec = spec(List.of("sh", "-c", "(setsid sleep 300 & echo $! > \"$1\") ; read x < \"$0\"; exit 4",
        go.toString(), pidFile.toString()));
    LocalProcessExecutor first = new LocalProcessExecutor();
    crashedWhileARuns(spec, first);
    first.close();

    FakeExecutor second = new FakeExecutor();
    Engine engine = resumed(spec, second);
    CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> {
      try {
        return engine.run();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    Files.writeString(go, "go\n"); // the adopted task ends
    RunResult result = run.get(WAIT_SECONDS, TimeUnit.SECONDS);

    assertThat(result.report().status()).isEqualTo(RunStatus.FAILED);
    TaskEvent.Ended ended = (TaskEvent.Ended) engine.state().task(A).history().events().stream()
        .filter(TaskEvent.Ended.class::isInstance).reduce((x, y) -> y).orElseThrow();
    assertThat(ended.exitCode()).isEqualTo(4);
    assertThat(second.transcript()).isEmpty();
    ProcessHandle left = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).orElse(null);
    assertThat(left == null || left.onExit().isDone() || await(left)).as("the setsid'd child ended").isTrue();
  }

  @Test
  void anExitAfterBerthsOwnKillOnItsWayOutIsAnInterruptionNotAFailure() throws Exception {
    RunSpec spec = spec(List.of("work"));
    FakeExecutor first = new FakeExecutor().deferTerminations();
    journal.start("r", "spec", clock.instant());
    Engine engine = engine(spec, first, journal);
    engine.start();
    engine.interrupt("interrupted by SIGTERM");
    engine.drain();
    first.deliverTerminations(); // the exit is marked, 143, and Berth dies before it journals it

    FakeExecutor second = new FakeExecutor();
    Engine resumedEngine = resumed(spec, second);
    resumedEngine.start();

    assertThat(second.transcript()).containsExactly("launch a#2");
    assertThat(resumedEngine.state().task(A).history().events()).filteredOn(TaskEvent.Ended.class::isInstance)
        .extracting(e -> ((TaskEvent.Ended) e).outcome()).containsExactly(Outcome.INTERRUPTED);
  }

  @Test
  void aKillAfterTheJournalFailedIsMarkedAsBerthsOwnStop() throws Exception {
    RunSpec spec = spec(List.of("work"), "b");
    FakeExecutor first = new FakeExecutor();
    journal.start("r", "spec", clock.instant());
    FailingJournal failing = new FailingJournal(journal);
    Engine engine = engine(spec, first, failing);
    CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> {
      try {
        return engine.run();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    waitUntil(() -> first.isRunning(A) && first.isRunning(TaskId.of("b")));
    failing.fail = true;
    first.exit(TaskId.of("b"), 0); // the loop journals it, and the journal fails
    assertThat(run).failsWithin(WAIT_SECONDS, TimeUnit.SECONDS);
    first.exit(A, 137); // what kills the processes after a failed engine does, as the JVM leaves

    FakeExecutor second = new FakeExecutor();
    Engine resumedEngine = resumed(spec, second);
    resumedEngine.start();

    assertThat(second.transcript()).containsExactly("launch a#2");
    assertThat(resumedEngine.state().task(A).history().events()).filteredOn(TaskEvent.Ended.class::isInstance)
        .extracting(e -> ((TaskEvent.Ended) e).outcome()).containsExactly(Outcome.INTERRUPTED);
  }

  @Test
  void aStepThatFailsOnTheJournalMarksTheAttemptsStillRunningAsBerthsOwnStop() throws Exception {
    RunSpec spec = spec(List.of("work"), "b");
    FakeExecutor first = new FakeExecutor();
    journal.start("r", "spec", clock.instant());
    FailingJournal failing = new FailingJournal(journal);
    Engine engine = engine(spec, first, failing);
    engine.start();
    assertThat(first.isRunning(A) && first.isRunning(TaskId.of("b"))).isTrue();
    failing.fail = true;
    first.exit(TaskId.of("b"), 0);
    assertThatThrownBy(engine::drain).isInstanceOf(RuntimeException.class); // the step journals the exit, and fails
    first.exit(A, 137); // what kills the processes after a failed engine does

    FakeExecutor second = new FakeExecutor();
    Engine resumedEngine = resumed(spec, second);
    resumedEngine.start();

    assertThat(second.transcript()).containsExactly("launch a#2");
    assertThat(resumedEngine.state().task(A).history().events()).filteredOn(TaskEvent.Ended.class::isInstance)
        .extracting(e -> ((TaskEvent.Ended) e).outcome()).containsExactly(Outcome.INTERRUPTED);
  }

  @Test
  void anAdoptedTaskThatIgnoresSigtermIsKilledWhenTheEnginesClockPassesTheGracePeriod() throws Exception {
    Path go = fifo("stubborn.fifo");
    Path pidFile = dir.resolve("stubborn.pid");
    RunSpec spec = new RunSpec("r", dir.toString(), config, List.of(new GroupSpec("g", List.of(
        TaskSpec.builder("a", "g").command("sh", "-c", "trap '' TERM; echo $$ > \"$1\"; read x < \"$0\"",
            go.toString(), pidFile.toString()).memoryBytes(64 * MIB).cpus(1).set(TaskKeys.RETRIES, 0)
            .timeout(Duration.ofSeconds(30)).build()))));
    LocalProcessExecutor first = new LocalProcessExecutor();
    crashedWhileARuns(spec, first);
    first.close();
    waitUntil(() -> Files.exists(pidFile) && !readQuietly(pidFile).isBlank());
    ProcessHandle task = ProcessHandle.of(Long.parseLong(readQuietly(pidFile).strip())).orElseThrow();
    clock.advance(Duration.ofMinutes(1)); // past its timeout

    Engine engine = resumed(spec, new FakeExecutor());
    engine.start(); // adopts it and kills it for its timeout: it ignores SIGTERM
    clock.advance(Duration.ofMillis(LiveExecutions.TERMINATE_GRACE_MILLIS + 1_000));

    // Well within the real grace period: only the engine's timers can have sent the SIGKILL by then.
    assertThat(task.onExit()).as("SIGKILL follows once the engine's clock passed the grace period")
        .succeedsWithin(LiveExecutions.TERMINATE_GRACE_MILLIS - 1_000, TimeUnit.MILLISECONDS);
  }

  @Test
  void anAdoptedTaskThatItsDeadBerthLeftFrozenIsThawedSoThatAnInterruptEndsIt() throws Exception {
    assumeThat(FrozenTaskGroup.available()).as("a writable cgroup v1 freezer hierarchy on this machine").isTrue();
    Path go = fifo("frozen.fifo");
    Path pidFile = dir.resolve("frozen.pid");
    RunSpec spec = spec(List.of("sh", "-c", "echo $$ $PPID > \"$1\"; read x < \"$0\"", go.toString(),
        pidFile.toString()));
    LocalProcessExecutor first = new LocalProcessExecutor();
    crashedWhileARuns(spec, first);
    first.close();
    waitUntil(() -> readQuietly(pidFile).strip().contains(" "));
    long[] commandAndSupervisor = java.util.Arrays.stream(readQuietly(pidFile).strip().split(" "))
        .mapToLong(Long::parseLong).toArray();
    // The earlier Berth died while it signalled the task's container, which it had frozen.
    try (FrozenTaskGroup frozen = FrozenTaskGroup.create().freeze(commandAndSupervisor)) {
      Engine engine = resumed(spec, new FakeExecutor());
      CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> {
        try {
          return engine.run();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      engine.interrupt("interrupted by SIGTERM"); // the task's command dies of the SIGTERM once it can

      assertThat(run.get(WAIT_SECONDS, TimeUnit.SECONDS).report().status()).isEqualTo(RunStatus.INTERRUPTED);
      assertThat(engine.state().task(A).history().events()).filteredOn(TaskEvent.Ended.class::isInstance)
          .extracting(e -> ((TaskEvent.Ended) e).outcome()).containsExactly(Outcome.INTERRUPTED);
    }
  }

  @Test
  void anAdoptedTaskWhoseExitFollowsBerthsOwnKillRunsAgainInTheResumedRun() throws Exception {
    Path go = fifo("killed.fifo");
    RunSpec spec = spec(List.of("sh", "-c", "read x < \"$0\"; exit 137", go.toString()));
    LocalProcessExecutor first = new LocalProcessExecutor();
    Engine crashed = crashedWhileARuns(spec, first);
    first.close();
    // The earlier Berth marked its kill on its way out, and died before the process did.
    ExitMarks.of(new RunLayout(dir).runDir()).writeKill(new RunLayout(dir).taskDir(crashed.state().task(A).spec()), 1,
        new dev.berth.core.scheduling.Decision.Kill(A, Outcome.INTERRUPTED, "interrupted: Berth stopped"));

    FakeExecutor second = new FakeExecutor();
    Engine engine = resumed(spec, second);
    engine.start(); // adopts it
    assertThat(second.transcript()).isEmpty();
    Files.writeString(go, "go\n"); // the adopted process ends, after the kill marked for it

    waitUntil(() -> {
      engine.drain();
      return second.transcript().contains("launch a#2");
    });
    assertThat(engine.state().task(A).history().events()).filteredOn(TaskEvent.Ended.class::isInstance)
        .extracting(e -> ((TaskEvent.Ended) e).outcome()).containsExactly(Outcome.INTERRUPTED);
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      return "";
    }
  }

  private void taskEnvironment(Map<String, String> env, int attempt) {
    env.put("BERTH_RUN_DIR", new RunLayout(dir).runDir().toString());
    env.put("BERTH_TASK_ID", "a");
    env.put("BERTH_ATTEMPT", Integer.toString(attempt));
  }

  private Path fifo(String name) throws Exception {
    Path fifo = dir.resolve(name);
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor()).isZero();
    return fifo;
  }

  private static boolean await(ProcessHandle p) {
    return p.onExit().completeOnTimeout(null, WAIT_SECONDS, TimeUnit.SECONDS).join() != null || !p.isAlive();
  }

  private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
      Thread.yield();
    }
    assertThat(condition.getAsBoolean()).isTrue();
  }

  /** A journal whose flushes fail once told to, as one on a full or read-only disk. */
  private static final class FailingJournal implements Journal {
    private final Journal delegate;
    volatile boolean fail;

    FailingJournal(Journal delegate) {
      this.delegate = delegate;
    }

    @Override
    public void start(String runName, String specJson, Instant startedAt) throws JournalException {
      delegate.start(runName, specJson, startedAt);
    }

    @Override
    public void append(TaskId task, TaskEvent event) {
      if (!fail) {
        delegate.append(task, event);
      }
    }

    @Override
    public void flush() throws JournalException {
      if (fail) {
        throw new JournalException(Path.of("journal.db"), "disk I/O error", null);
      }
      delegate.flush();
    }

    @Override
    public void finish(RunStatus status, Instant finishedAt) throws JournalException {
      delegate.finish(status, finishedAt);
    }

    @Override
    public Optional<Replay> replay() throws JournalException {
      return delegate.replay();
    }

    @Override
    public void close() throws JournalException {
      delegate.close();
    }
  }
}

package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.protocol.Stage;
import dev.berth.protocol.TaskMessage;
import dev.berth.protocol.TaskPhase;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeGpuProbe;
import dev.berth.testkit.FakeHostProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whatever task processes do, at whatever stage, Berth goes on: random process endings (any exit
 * code, signals, exit 0 without a result, before, during and after load and train), random protocol
 * messages in and out of order, hung-up and refused connections, second connections, timeouts and
 * cancels, against the engine with a fake executor, a fake control channel and a fake clock. Each
 * case asserts that nothing throws, the run ends with its report, every task ends with a reason,
 * each attempt's stage is the one it was in when it ended, and deaths during training are charged to
 * {@code train-nretry}. Set {@code -Dberth.seed=N} to run one case again.
 */
class TaskBehaviourPropertyTest {

  private static final long MIB = 1L << 20;
  private static final int CASES = 300;
  private static final int STEPS = 80;
  private static final int[] EXIT_CODES = {0, 0, 1, 2, 3, 128 + 9, 128 + 9, 128 + 15, 128 + 11, 128 + 6};

  @TempDir Path tmp;

  @Test
  void noTaskBehaviourTakesBerthDownAndEachEndingHasItsReasonStageAndBudget() throws Exception {
    String one = System.getProperty("berth.seed");
    long first = one != null ? Long.parseLong(one) : 20_261_124L;
    int cases = one != null ? 1 : CASES;
    for (int i = 0; i < cases; i++) {
      long seed = first + i;
      Path dir = Files.createDirectory(tmp.resolve("case-" + seed));
      try {
        new Case(seed, dir).run();
      } catch (Throwable t) {
        throw new AssertionError("seed " + seed + " (rerun with -Dberth.seed=" + seed + "): " + t.getMessage(), t);
      }
    }
  }

  /** What the test knows of one attempt's end, from the events the engine announced. */
  private record Ending(TaskState before, String expectedStage, TaskEvent.Ended event) {}

  /** One random run. */
  private static final class Case implements RunListener {
    private final Random random;
    private final Path dir;
    private final FakeClock clock = new FakeClock();
    private final FakeExecutor executor = new FakeExecutor();
    private final FakeControl control = new FakeControl();
    private final SchedulerConfig config;
    private final boolean gpu;
    private final List<TaskSpec> tasks = new ArrayList<>();
    private final Map<TaskId, TaskState> last = new TreeMap<>();
    private final Map<TaskId, String> reportedStage = new TreeMap<>();
    private final Map<TaskId, List<Ending>> endings = new TreeMap<>();
    private final Map<String, Integer> exitsSent = new TreeMap<>();
    private Engine engine;

    Case(long seed, Path dir) {
      this.random = new Random(seed);
      this.dir = dir;
      this.config = SchedulerConfig.builder().set(SchedulerKeys.REMAIN_MEMORY, MIB)
          .set(SchedulerKeys.LOAD_NRETRY, 1 + random.nextInt(3))
          .set(SchedulerKeys.TRAIN_NRETRY, 1 + random.nextInt(3)).build();
      this.gpu = random.nextBoolean(); // one 16 GiB GPU: loaded tasks wait for it, and outgrow it after OOMs
      int twoStage = 1 + random.nextInt(3);
      for (int i = 0; i < twoStage; i++) {
        tasks.add(spec("fit" + i, true));
      }
      if (random.nextInt(3) == 0) {
        tasks.add(spec("plain", false));
      }
    }

    private TaskSpec spec(String id, boolean twoStage) {
      TaskSpec.Builder b = TaskSpec.builder(id, "g").command("work", id).memoryBytes(64 * MIB).cpus(1)
          .twoStage(twoStage).set(TaskKeys.RETRIES, random.nextInt(3));
      if (gpu) {
        b.gpuMemoryBytes((9L + random.nextInt(4)) << 30);
      }
      if (random.nextInt(4) == 0) {
        b.timeout(Duration.ofSeconds(5 + random.nextInt(30)));
      }
      return b.build();
    }

    void run() throws Exception {
      RunSpec spec = new RunSpec("r", dir.toString(), config, List.of(new GroupSpec("g", tasks)));
      FakeHostProbe probe = new FakeHostProbe().cpus(8).totalGiB(16).availableGiB(12).utilization(0.1);
      FakeGpuProbe gpus = new FakeGpuProbe();
      if (gpu) {
        gpus.device(0, 16).simulated(0);
      }
      engine = new Engine(spec, new RunLayout(dir), executor, probe, gpus, clock, clock, this).control(control.opener());
      engine.start();
      for (int step = 0; step < STEPS && engine.result() == null; step++) {
        act();
        engine.drain();
      }
      for (int round = 0; round < 500 && engine.result() == null; round++) {
        for (TaskId id : executor.running()) {
          exit(id, random.nextInt(3));
        }
        clock.advance(Duration.ofSeconds(6));
        engine.drain();
      }
      check();
    }

    /** One thing a task process, the user or time does. */
    private void act() {
      List<TaskId> live = new ArrayList<>(executor.running());
      int dice = random.nextInt(100);
      if (live.isEmpty() || dice < 8) {
        clock.advance(Duration.ofMillis(random.nextInt(8_000)));
        return;
      }
      TaskId id = live.get(random.nextInt(live.size()));
      if (dice < 58) {
        behave(id);
      } else if (dice < 68) {
        control.say(id, randomMessage());
      } else if (dice < 82) {
        exit(id, random.nextInt(3));
      } else if (dice < 86) {
        control.hangUp(id);
      } else if (dice < 89) {
        control.refuse(id, "sent a malformed line (not JSON)");
      } else if (dice < 92) {
        control.connectAgain(id);
      } else if (dice < 95) {
        control.hello(id);
      } else if (dice < 99) {
        engine.cancel(List.of(id), "cancelled by the test");
      } else {
        engine.cancel("the test cancelled the run");
      }
    }

    /** What a well-behaved task would say next, so that cases reach every stage. */
    private void behave(TaskId id) {
      TaskRecord r = engine.state().task(id);
      if (!r.spec().twoStage()) {
        exit(id, 1);
        return;
      }
      if (!control.isConnected(id)) {
        control.hello(id);
        return;
      }
      switch (r.state()) {
        case AVAILABLE -> control.say(id, new TaskMessage.Status(TaskPhase.LOADING));
        case LOADING -> control.say(id, random.nextBoolean() ? new TaskMessage.Item("n", 7)
            : new TaskMessage.Status(TaskPhase.WAITING));
        case TRAINING -> control.say(id, switch (random.nextInt(4)) {
          case 0 -> new TaskMessage.Status(TaskPhase.TRAINING);
          case 1 -> new TaskMessage.Result(Map.of("accuracy", 0.9));
          case 2 -> new TaskMessage.Oom(Stage.TRAIN, "CUDA out of memory");
          default -> new TaskMessage.Finished(1, 2);
        });
        case OUT_OF_MEMORY -> control.say(id, new TaskMessage.Status(TaskPhase.WAITING));
        case TRAINED -> exit(id, random.nextInt(2));
        default -> clock.advance(Duration.ofMillis(random.nextInt(2_000)));
      }
    }

    private TaskMessage randomMessage() {
      Stage stage = random.nextBoolean() ? Stage.LOAD : Stage.TRAIN;
      return switch (random.nextInt(7)) {
        case 0 -> new TaskMessage.Status(TaskPhase.values()[random.nextInt(3)]);
        case 1 -> new TaskMessage.Item("k" + random.nextInt(3), random.nextInt(10));
        case 2 -> new TaskMessage.Result(Map.of("v", random.nextInt(10)));
        case 3 -> new TaskMessage.Finished(1, 2);
        case 4 -> new TaskMessage.Oom(stage, "MemoryError");
        case 5 -> new TaskMessage.Failure(stage, "ValueError: bad", "Traceback (most recent call last): ...");
        default -> new TaskMessage.Hello(1);
      };
    }

    /**
     * The process ends with a random code; its connection closes before (0) or after (1) the exit is
     * seen, with maybe a last message in flight, or stays open in a process it left behind (2).
     */
    private void exit(TaskId id, int connection) {
      int code = EXIT_CODES[random.nextInt(EXIT_CODES.length)];
      exitsSent.put(id + "#" + executor.lastLaunch(id).attempt(), code);
      if (connection == 0) {
        control.hangUp(id);
      }
      executor.exit(id, code);
      if (connection == 1) {
        if (random.nextInt(3) == 0) {
          control.say(id, randomMessage());
        }
        control.hangUp(id);
      }
    }

    @Override
    public void taskEvent(TaskRecord task, TaskEvent event) {
      TaskId id = task.spec().id();
      if (event instanceof TaskEvent.Submitted) {
        return;
      }
      TaskState before = last.getOrDefault(id, TaskState.QUEUED);
      if (event instanceof TaskEvent.Launched) {
        reportedStage.remove(id);
      } else if (event instanceof TaskEvent.Reported r) {
        reportedStage.put(id, r.stage());
      } else if (event instanceof TaskEvent.Ended e) {
        endings.computeIfAbsent(id, k -> new ArrayList<>()).add(new Ending(before, stageIn(task, before), e));
      }
      last.put(id, event.target());
    }

    /** The stage a two-stage attempt was in, as the test sees it; null for a one-stage one. */
    private String stageIn(TaskRecord task, TaskState before) {
      if (!task.spec().twoStage()) {
        return null;
      }
      return switch (before) {
        case TRAINING, TRAINED -> "TRAIN";
        case OUT_OF_MEMORY -> reportedStage.get(task.spec().id());
        default -> "LOAD";
      };
    }

    private void check() throws Exception {
      assertThat(engine.result()).as("the run ended").isNotNull();
      assertThat(dir.resolve("report.json")).exists();
      List<TaskReport> reports = engine.result().report().groups().get(0).tasks();
      assertThat(reports).hasSameSizeAs(tasks);
      for (TaskReport t : reports) {
        TaskId id = TaskId.of(t.id());
        TaskRecord r = engine.state().task(id);
        assertThat(r.state().isTerminal()).as("%s ended: %s", id, r.state()).isTrue();
        if (t.status() != TaskStatus.SUCCEEDED) {
          assertThat(t.error()).as("%s's reason", id).isNotBlank();
        }
        List<Ending> ended = endings.getOrDefault(id, List.of());
        int bound = 1 + r.spec().retry().retries() + config.loadNretry() + 2 * config.trainNretry();
        assertThat(t.attempts()).as("%s's attempts, within its budgets", id).hasSizeLessThanOrEqualTo(bound);
        for (int n = 0; n < ended.size(); n++) {
          checkEnding(id, n + 1, ended.get(n), t.attempts().get(n), r.spec().twoStage());
        }
      }
    }

    private void checkEnding(TaskId id, int attempt, Ending e, AttemptReport report, boolean twoStage) {
      String what = id + " attempt " + attempt + " ended " + e.event() + " from " + e.before();
      TaskEvent.Ended end = e.event();
      if (end.outcome() != Outcome.SUCCEEDED) {
        assertThat(end.message()).as(what).isNotBlank();
        assertThat(report.stage()).as("stage of " + what).isEqualTo(e.expectedStage());
      }
      if (!twoStage) {
        return;
      }
      String message = String.valueOf(end.message());
      if (message.contains("[scheduler.train-nretry]")) {
        assertThat(e.expectedStage()).as("train-nretry charged for " + what).isEqualTo("TRAIN");
      }
      if (message.contains("[scheduler.load-nretry]")) {
        assertThat(e.expectedStage()).as("load-nretry charged for " + what).isEqualTo("LOAD");
      }
      if (e.before() == TaskState.TRAINED) {
        assertThat(end.outcome()).as(what).isEqualTo(Outcome.SUCCEEDED);
      }
      Integer sent = exitsSent.get(id + "#" + attempt);
      boolean stoppedByBerth = executor.terminations().stream()
          .anyMatch(x -> x.task().equals(id) && x.attempt() == attempt);
      boolean brokeProtocol = message.startsWith("broke the control protocol: "); // a message in flight, before the exit
      if (sent == null || stoppedByBerth || brokeProtocol || !sent.equals(end.exitCode())) {
        return;
      }
      if (sent == 0 && e.before() != TaskState.TRAINED && e.before() != TaskState.OUT_OF_MEMORY) {
        assertThat(end.outcome()).as(what).isEqualTo(Outcome.FAILED);
        assertThat(message).as(what).startsWith("exited 0 ").contains(" without a result");
      }
      if (sent > 128 && e.before() == TaskState.TRAINING) {
        assertThat(message).as("a death by a signal during training, with no sign of running out of memory,"
            + " is an ordinary failure, not a spent train call: " + what).doesNotContain("[scheduler.train-nretry]");
      }
    }
  }
}

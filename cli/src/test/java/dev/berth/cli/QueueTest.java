package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.session.JournalView;
import dev.berth.cli.args.Parser;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code berth submit} and the queue it starts, end to end: real queue processes on a home and a
 * host folder of the test's own, tasks that are real processes, GPUs simulated.
 */
class QueueTest {

  /** Room for every test task on a loaded machine: no host limit holds them back. */
  private static final String ROOMY = "utilization-limit: {cpu: 1.0, memory: 1.0, cuda-memory: 1.0},"
      + " remain-limit: {memory: 1MiB, cuda-memory: 0}, scheduler: {default-memory: 1MiB}";

  @TempDir Path dir;

  private QueueHome home(String name, String settings) throws Exception {
    return new QueueHome(dir.resolve(name), dir.resolve("host"), settings);
  }

  @Test
  void fourGpuTasksSubmittedOneAfterAnotherRunSideBySideByMemory() throws Exception {
    try (QueueHome h = home("a", "gpus: sim:2x24GiB\nconfig: {" + ROOMY + ", queue: {idle-exit: 5s}}\n")) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        QueueHome.Ran s = h.submit("--gpu-memory", "10GiB", "--cpus", "0", "--", "sleep", "2");
        assertThat(s.code()).as(s.err()).isZero();
        assertThat(s.out()).matches("[0-9]+\n");
        ids.add(s.id());
      }
      assertThat(ids).containsExactly("1", "2", "3", "4");

      QueueHome.Ran waited = h.waitFor();

      assertThat(waited.code()).as(waited.err() + h.log()).isZero();
      Map<String, AttemptReport> attempts = attempts(h);
      Instant lastStart = attempts.values().stream().map(AttemptReport::startedAt).max(Instant::compareTo).orElseThrow();
      Instant firstEnd = attempts.values().stream().map(AttemptReport::finishedAt).min(Instant::compareTo).orElseThrow();
      assertThat(lastStart).as("all four ran at once, two 10 GiB tasks on each 24 GiB device").isBefore(firstEnd);
      Map<String, Integer> perDevice = new TreeMap<>();
      attempts.values().forEach(a -> perDevice.merge(a.device(), 1, Integer::sum));
      assertThat(perDevice).containsExactlyInAnyOrderEntriesOf(Map.of("cuda:0", 2, "cuda:1", 2));
      QueueHome.Ran list = h.list();
      assertThat(list.out()).contains("ID", "STATE", "WAITED", "RAN", "EXIT", "DEVICE", "COMMAND")
          .contains("succeeded").contains("sleep 2");
    }
  }

  @Test
  void waitExitsWithTheTasksExitCode() throws Exception {
    try (QueueHome h = home("a", "gpus: none\nconfig: {" + ROOMY + ", queue: {idle-exit: 60s}}\n")) {
      String failing = h.submit("--", "sh", "-c", "echo out; echo err >&2; exit 3").id();
      String fine = h.submit("--", "true").id();

      assertThat(h.waitFor(failing).code()).as(h.log()).isEqualTo(3);
      assertThat(h.waitFor(fine).code()).isZero();
      assertThat(h.waitFor().code()).as("with none named, the first failure's code").isEqualTo(3);
      QueueHome.Ran badValue = h.submit("--memory", "12XB", "--", "true");
      assertThat(badValue.code()).isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(badValue.err()).startsWith("berth: berth submit: --memory: ");
      QueueHome.Ran both = h.submit("--gpus", "1", "--gpu-memory", "1GiB", "--", "true");
      assertThat(both.code()).as("a live queue checks each value alone and the whole task as it takes it").isZero();
      assertThat(h.waitFor(both.id()).code()).isEqualTo(1);
      assertThat(h.list().out()).containsPattern("(?m)^" + both.id() + " +refused").contains("not both");
      QueueHome.Ran logs = h.logs(failing);
      assertThat(logs.out()).isEqualTo("out\n");
      assertThat(logs.err()).isEqualTo("err\n");
    }
  }

  @Test
  void logsFollowsATasksOutputUntilItEnds() throws Exception {
    try (QueueHome h = home("a", "gpus: none\nconfig: {" + ROOMY + ", queue: {idle-exit: 5s}}\n")) {
      String id = h.submit("--", "sh", "-c", "echo first; sleep 1; echo second; echo late >&2").id();

      QueueHome.Ran followed = h.logs("-f", id);

      assertThat(followed.code()).as(followed.err() + h.log()).isZero();
      assertThat(followed.out()).isEqualTo("first\nsecond\n");
      assertThat(followed.err()).isEqualTo("late\n");
      assertThat(h.logs("7").code()).isEqualTo(ExitCodes.BAD_INPUT);
    }
  }

  @Test
  void aTaskSubmittedAfterAnotherStartsOnceItSucceededAndRunsWhereItWasSubmitted() throws Exception {
    Path trace = dir.resolve("trace");
    try (QueueHome h = home("a", "gpus: none\nconfig: {" + ROOMY + ", queue: {idle-exit: 5s}}\n")) {
      String first = h.submit("--", "sh", "-c", "sleep 1; echo first >> " + trace).id();
      String second = h.submit("--after", first, "--env", "WHO=second", "--", "sh", "-c",
          "echo $WHO $(pwd) >> " + trace).id();
      String failing = h.submit("--", "false").id();
      String never = h.submit("--after", failing, "--", "sh", "-c", "echo never >> " + trace).id();

      h.waitFor(second, never);

      assertThat(Files.readAllLines(trace)).containsExactly("first", "second " + Path.of("").toAbsolutePath());
      assertThat(h.list().out()).containsPattern("(?m)^" + never + " +unreachable");
      QueueHome.Ran unknown = h.submit("--after", "99", "--", "true");
      assertThat(unknown.code()).isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(unknown.err()).contains("--after").contains("'99' is not a task of your queue");
    }
  }

  @Test
  void aQueueKilledWithTasksWaitingGoesOnAtTheNextSubmitRunningEveryTaskOnce() throws Exception {
    Path trace = dir.resolve("trace");
    try (QueueHome h = home("a", "gpus: none\nconfig: {" + ROOMY
        + ", scheduler: {max-process: 1, default-memory: 1MiB}, queue: {idle-exit: 5s}}\n")) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        ids.add(h.submit("--", "sh", "-c", "echo $BERTH_TASK_ID >> " + trace + "; sleep 1").id());
      }
      assertThat(QueueHome.until(() -> Files.exists(trace), Duration.ofSeconds(30))).as(h.log()).isTrue();
      List<Long> pids = h.queuePids();
      assertThat(pids).hasSize(1);
      ProcessHandle queue = ProcessHandle.of(pids.get(0)).orElseThrow();
      queue.destroyForcibly(); // kill -9, with three tasks waiting
      queue.onExit().join();

      ids.add(h.submit("--", "sh", "-c", "echo $BERTH_TASK_ID >> " + trace).id());
      QueueHome.Ran waited = h.waitFor();

      assertThat(waited.code()).as(waited.err() + h.log()).isZero();
      List<String> ran = new ArrayList<>(Files.readAllLines(trace));
      Collections.sort(ran);
      assertThat(ran).as(h.log()).containsExactly("1", "2", "3", "4", "5");
      assertThat(h.queuePids()).hasSize(2);
    }
  }

  @Test
  void theQueueEndsWhenIdleAndTheNextSubmitStartsItAgainWithItsHistory() throws Exception {
    try (QueueHome h = home("a", "gpus: none\nconfig: {" + ROOMY + ", queue: {idle-exit: 1s}}\n")) {
      String first = h.submit("--", "true").id();
      QueueHome.Ran waited = h.waitFor(first);
      assertThat(waited.code()).as(waited.err() + h.log()).isZero();
      assertThat(QueueHome.until(() -> !h.queue.live(), Duration.ofSeconds(30))).as(h.log()).isTrue();

      String second = h.submit("--", "true").id();

      assertThat(h.waitFor(second).code()).as(h.log()).isZero();
      assertThat(attempts(h)).containsOnlyKeys(first, second);
      assertThat(h.log()).contains("queue ends: nothing to run for 1 s").contains("resumed from its journal");
    }
  }

  @Test
  void cancelAndRetryTakeQueueIds() throws Exception {
    try (QueueHome h = home("a", "gpus: none\nconfig: {" + ROOMY
        + ", scheduler: {max-process: 1, default-memory: 1MiB}, queue: {idle-exit: 5s}}\n")) {
      String running = h.submit("--", "sleep", "60").id();
      String waiting = h.submit("--name", "quick", "--", "true").id();
      assertThat(QueueHome.until(() -> state(h, running).equals("running"), Duration.ofSeconds(30))).as(h.log())
          .isTrue();
      assertThat(QueueHome.until(() -> h.list().out().contains("\n  why: "), Duration.ofSeconds(10)))
          .as("a waiting task says why: " + h.list().out()).isTrue();

      assertThat(h.cancel(waiting).code()).isZero();
      assertThat(h.cancel(running).code()).isZero();

      assertThat(h.waitFor(running, waiting).code()).as(h.log()).isNotZero();
      assertThat(state(h, running)).isEqualTo("cancelled");
      assertThat(state(h, waiting)).isEqualTo("cancelled");
      QueueHome.Ran again = h.retry(waiting);
      assertThat(again.code()).as(again.err()).isZero();
      String copy = again.id();
      assertThat(copy).isEqualTo("3");
      assertThat(h.waitFor(copy).code()).as(h.log()).isZero();
      assertThat(h.list().out()).containsPattern("(?m)^3 +succeeded .*\\[quick\\] true$");
      assertThat(h.cancel("99").code()).isEqualTo(ExitCodes.BAD_INPUT);
    }
  }

  @Test
  void twoUsersQueuesShareTheHostLedger() throws Exception {
    String settings = "gpus: sim:1x24GiB\nconfig: {" + ROOMY + ", queue: {idle-exit: 5s}}\n";
    try (QueueHome a = home("a", settings); QueueHome b = home("b", settings)) {
      String big = a.submit("--gpu-memory", "20GiB", "--cpus", "0", "--", "sleep", "2").id();
      assertThat(QueueHome.until(() -> state(a, big).equals("running"), Duration.ofSeconds(30))).as(a.log()).isTrue();
      String other = b.submit("--gpu-memory", "20GiB", "--cpus", "0", "--", "true").id();

      assertThat(b.waitFor(other).code()).as(b.log()).isZero();

      AttemptReport held = attempts(a).get(big);
      AttemptReport waited = attempts(b).get(other);
      assertThat(waited.startedAt()).as("b's task waits for the GPU memory a's queue holds")
          .isAfterOrEqualTo(held.finishedAt());
      assertThat(a.list("-a").out()).contains("USER");
      StringWriter ps = new StringWriter();
      new PsCommand(a.env::get).run(Parser.parse(new PsCommand().syntax(), new String[] {"-a"}, 0),
          new PrintWriter(ps, true), new PrintWriter(new StringWriter(), true));
      assertThat(ps.toString().lines().filter(l -> l.matches("\\S+ +queue .*")).count()).as(ps.toString()).isEqualTo(2);
    }
  }

  private static String state(QueueHome h, String id) {
    try {
      return QueueView.read(h.queue, Instant.now()).stream().filter(r -> Integer.toString(r.submission().id())
          .equals(id)).findFirst().map(QueueView.Row::state).orElse("none");
    } catch (java.io.IOException e) {
      return "unreadable";
    }
  }

  private static Map<String, AttemptReport> attempts(QueueHome h) throws Exception {
    Map<String, AttemptReport> last = new TreeMap<>();
    for (TaskRecord r : JournalView.read(h.queue.runDir()).state().tasks()) {
      TaskReport t = TaskReport.of(r, "");
      last.put(t.id(), t.attempts().get(t.attempts().size() - 1));
    }
    return last;
  }
}

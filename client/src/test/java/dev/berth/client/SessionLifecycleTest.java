package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskStatus;
import dev.berth.report.Objective;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionLifecycleTest {

  @TempDir Path dir;

  @Test
  void aSessionRunsAGroupOfRealProcessesAndReportsEachTask() throws Exception {
    try (Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build())) {
      GroupResult group = berth.execute(Groups.of("first",
          Tasks.command("ok", "true"),
          Tasks.command("bad", "false"),
          Tasks.command("writes", "sh", "-c", "echo '{\"accuracy\": 0.75, \"epochs\": 3}' > result.json; echo done")));

      assertThat(group.name()).isEqualTo("first");
      assertThat(group.task("ok").status()).isEqualTo(TaskStatus.SUCCEEDED);
      assertThat(group.task("bad").status()).isEqualTo(TaskStatus.FAILED);
      assertThat(group.task("bad").error()).hasValueSatisfying(e -> assertThat(e).contains("code 1"));
      assertThat(group.task("bad").attempts()).singleElement().satisfies(a -> assertThat(a.exitCode()).isEqualTo(1));
      assertThat(group.task("writes").result()).containsEntry("epochs", 3).containsKey("accuracy");
      assertThat(group.task("writes").number("accuracy")).hasValue(0.75);
      assertThat(group.task("writes").stdout()).isEqualTo("done\n");
      assertThat(group.task("writes").workdir()).isEqualTo(berth.workdir().resolve("first").resolve("writes"));
      assertThat(group.succeeded()).isFalse();
      assertThat(group.results()).containsOnlyKeys("ok", "bad", "writes");
    }
    assertThat(Files.readString(dir.resolve("session").resolve("report.json"))).contains("\"FAILED\"");
    assertThat(dir.resolve("session").resolve("report.html")).exists();
  }

  @Test
  void closingInterruptsWhatRunsAndLeavesNoBerthThreadAndNoChildProcess() throws Exception {
    Events events = new Events();
    TaskHandle sleeper;
    TaskHandle queued;
    Berth berth = Berth.local(Sessions.real(dir, events).set("scheduler.max-process", 1).build());
    try {
      berth.executeTask(Tasks.command("warm-up", "true"));
      sleeper = berth.submit(Tasks.command("sleeper", "sh", "-c", "sleep 60 & sleep 60; wait"));
      queued = berth.submit(Tasks.command("queued", "true"));
      events.awaitLaunch("sleeper");
      assertThat(Sessions.childProcesses()).isNotEmpty();
    } finally {
      berth.close();
    }

    assertThat(sleeper.isDone()).isTrue();
    assertThat(sleeper.get().status()).isEqualTo(TaskStatus.INTERRUPTED);
    assertThat(sleeper.status()).isEqualTo(TaskStatus.INTERRUPTED);
    assertThat(queued.get().status()).isEqualTo(TaskStatus.PENDING);
    assertThat(queued.get().attempts()).isEmpty();
    assertThat(berth.report()).hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.INTERRUPTED));
    assertThat(Sessions.berthThreads()).isEmpty();
    assertThat(Sessions.childProcesses()).isEmpty();
  }

  @Test
  void aSessionClosedBeforeItsTasksEndedResumesThemAndARetryRunsWhatFailedAgain() throws Exception {
    Events events = new Events();
    String failsOnce = "test -f ran || { touch ran; exit 1; }";
    Berth first = Berth.local(Sessions.real(dir, events).build());
    try {
      first.executeTask(Tasks.command("flaky", "sh", "-c", failsOnce));
      first.submit(Tasks.command("slow", "sleep", "60"));
      events.awaitLaunch("slow");
    } finally {
      first.close();
    }
    assertThat(first.report()).hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.INTERRUPTED));

    try (Berth again = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build())) {
      assertThat(again.resumed()).isTrue();
      TaskHandle slow = again.handle("slow").orElseThrow();
      assertThat(slow.attempts()).as("its interrupted attempt is kept").hasSizeGreaterThanOrEqualTo(1);
      again.cancel("slow");
      assertThat(again.handle("flaky").orElseThrow().get().status()).isEqualTo(TaskStatus.FAILED);
      assertThat(slow.get(Duration.ofSeconds(30)).status()).isEqualTo(TaskStatus.CANCELLED);
    }

    try (Berth retried = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE)
        .retry(new dev.berth.core.scheduling.RetrySelection(List.of("flaky"), true, false)).build())) {
      TaskResult flaky = retried.handle("flaky").orElseThrow().get(Duration.ofSeconds(30));
      assertThat(flaky.status()).isEqualTo(TaskStatus.SUCCEEDED);
      assertThat(flaky.attempts()).extracting(a -> a.number()).containsExactly(1, 2);
    }
    assertThatThrownBy(() -> Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE)
        .retry(new dev.berth.core.scheduling.RetrySelection(List.of("nope"), false, false)).build()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageEndingWith("no task of run test matches nope");
  }

  @Test
  void aSessionWithNothingLeftToRunEndsAsSucceededWhenClosed() throws Exception {
    Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build());
    TaskResult r = berth.executeTask(Tasks.command("only", "true"));
    berth.close();
    berth.close(); // a second close does nothing

    assertThat(r.group()).isEqualTo(Berth.TASKS_GROUP);
    assertThat(berth.isOpen()).isFalse();
    assertThat(berth.report()).hasValueSatisfying(rep -> assertThat(rep.status()).isEqualTo(RunStatus.SUCCEEDED));
    assertThat(Sessions.berthThreads()).isEmpty();
  }

  @Test
  void everyUseOfAClosedSessionThrowsIllegalStateException() throws Exception {
    Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build());
    berth.close();
    TaskBuilder t = Tasks.command("late", "true");
    Map<String, List<?>> grid = new LinkedHashMap<>();
    grid.put("x", List.of(1));

    assertThatThrownBy(() -> berth.execute(Groups.of("g", t))).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is closed");
    assertThatThrownBy(() -> berth.executeTask(t)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> berth.submit(t)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> berth.submitGroup(Groups.of("g", t))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> berth.add(Groups.of("g", t))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(berth::start).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(berth::plan).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> berth.map(List.of("echo", "{}"), List.of(1))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> berth.tune(grid, Tasks.template("t-{x}", "true"), Objective.max("score")))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(berth::cancel).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aSecondSessionOnTheSameFolderIsRefusedWhileTheFirstIsOpen() {
    BerthOptions options = Sessions.real(dir, RunListenerNone.INSTANCE).build();
    try (Berth first = Berth.local(options)) {
      assertThatThrownBy(() -> Berth.local(options))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("in use by another berth run");
      assertThat(first.isOpen()).isTrue();
    }
    try (Berth again = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).fresh(true).build())) {
      assertThat(again.isOpen()).isTrue(); // the folder was released; fresh(true) because the first session finished
    }
  }

  @Test
  void batchModeRunsTheAddedGroupsInOrderAndChecksThemAllFirst() throws Exception {
    try (Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build())) {
      berth.add(Groups.of("make", Tasks.command("make", "sh", "-c", "echo 41 > value")));
      berth.add(Groups.builder("use").task(Tasks.command("use", "sh", "-c",
          "echo \"{\\\"value\\\": $(( $(cat \"$BERTH_DEP_MAKE_DIR/value\") + 1 ))}\" > result.json").after("make")));
      assertThat(berth.plan().tasks()).extracting(Plan.Entry::id).containsExactly("make", "use");

      BatchResult batch = berth.start();

      assertThat(batch.groups()).extracting(GroupResult::name).containsExactly("make", "use");
      assertThat(batch.task("use").result()).containsEntry("value", 42);
      assertThat(batch.succeeded()).isTrue();
      assertThat(berth.start().groups()).isEmpty();

      berth.add(Groups.of("ok", Tasks.command("fine", "true")));
      berth.add(Groups.of("broken", Tasks.command("fine", "true")));
      assertThatThrownBy(berth::start).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("task id 'fine' is used in group ok");
      assertThat(berth.submit(Tasks.command("fine", "true")).get().succeeded()).isTrue(); // nothing of the batch ran
    }
  }

  @Test
  void aTaskThatOutlivesItsTimeoutIsKilledAndReportedTimedOut() throws Exception {
    try (Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build())) {
      TaskResult r = berth.executeTask(Tasks.command("slow", "sleep", "30").timeout(Duration.ofMillis(300)));

      assertThat(r.status()).isEqualTo(TaskStatus.TIMED_OUT);
    }
    assertThat(Sessions.childProcesses()).isEmpty();
  }

  @Test
  void aHandleSeesTheLiveStateOfItsTask() throws Exception {
    Events events = new Events();
    try (Berth berth = Berth.local(Sessions.real(dir, events).build())) {
      TaskHandle h = berth.submit(Tasks.command("wait-for-file", "sh", "-c", "while [ ! -e go ]; do sleep 0.05; done"));
      events.awaitLaunch("wait-for-file");
      assertThat(h.state()).isEqualTo(TaskState.RUNNING);
      assertThat(h.status()).isEqualTo(TaskStatus.RUNNING);
      assertThat(h.attempts()).singleElement().satisfies(a -> assertThat(a.outcome()).isEqualTo("RUNNING"));
      Files.createFile(h.workdir().resolve("go"));

      assertThat(h.get(Duration.ofSeconds(10)).succeeded()).isTrue();
      assertThat(h.state()).isEqualTo(TaskState.SUCCEEDED);
    }
  }
}

package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.TaskStatus;
import dev.berth.runtime.control.CancelRequests;
import dev.berth.testkit.FakeExecutor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskHandleTest {

  @TempDir Path dir;

  private final FakeExecutor executor = new FakeExecutor();
  private final Events events = new Events();
  private Berth berth;

  @BeforeEach
  void open() {
    berth = Berth.local(Sessions.fake(dir, executor, events).set("scheduler.max-process", 1).build());
  }

  @AfterEach
  void close() {
    berth.close();
  }

  @Test
  void awaitReturnsTrueOnceATaskThatSucceedsHasEnded() throws Exception {
    TaskHandle h = berth.submit(Tasks.command("a", "run"));
    events.awaitLaunch("a");

    assertThat(h.await(Duration.ofMillis(20))).isFalse();
    assertThat(h.state()).isEqualTo(TaskState.RUNNING);
    executor.exit(TaskId.of("a"), 0);

    assertThat(h.await(Duration.ofSeconds(10))).isTrue();
    assertThat(h.isDone()).isTrue();
    assertThat(h.status()).isEqualTo(TaskStatus.SUCCEEDED);
    assertThat(h.result()).isEmpty();
    assertThat(h.get().attempts()).singleElement().satisfies(a -> assertThat(a.exitCode()).isZero());
  }

  @Test
  void aTaskThatFailsEndsItsHandleWithoutThrowingUntilItsResultIsAskedFor() throws Exception {
    TaskHandle h = berth.submit(Tasks.command("b", "run"));
    events.awaitLaunch("b");
    executor.writeOutput(TaskId.of("b"), "", "Traceback: boom\n");
    executor.exit(TaskId.of("b"), 2);

    assertThat(h.await(Duration.ofSeconds(10))).isTrue();
    TaskResult r = h.get();
    assertThat(r.status()).isEqualTo(TaskStatus.FAILED);
    assertThat(r.error()).hasValueSatisfying(e -> assertThat(e).contains("code 2"));
    assertThat(r.stderr()).isEqualTo("Traceback: boom\n");
    assertThatThrownBy(h::result).isInstanceOf(TaskFailedException.class)
        .hasMessageContaining("task b ended FAILED")
        .satisfies(e -> assertThat(((TaskFailedException) e).result().id()).isEqualTo("b"));
  }

  @Test
  void getWithATimeoutThrowsTimeoutExceptionWhileTheTaskRuns() throws Exception {
    TaskHandle h = berth.submit(Tasks.command("c", "run"));
    events.awaitLaunch("c");

    assertThatThrownBy(() -> h.get(Duration.ofMillis(20))).isInstanceOf(TimeoutException.class);
    executor.exit(TaskId.of("c"), 0);
    assertThat(h.get(Duration.ofSeconds(10)).succeeded()).isTrue();
  }

  @Test
  void cancellingAQueuedTaskEndsItWithoutEverLaunchingIt() throws Exception {
    TaskHandle running = berth.submit(Tasks.command("first", "run"));
    events.awaitLaunch("first");
    TaskHandle queued = berth.submit(Tasks.command("second", "run")); // max-process 1: it waits

    queued.cancel();

    assertThat(queued.get(Duration.ofSeconds(10)).status()).isEqualTo(TaskStatus.CANCELLED);
    assertThat(queued.get().attempts()).isEmpty();
    executor.exit(TaskId.of("first"), 0);
    assertThat(running.get(Duration.ofSeconds(10)).succeeded()).isTrue();
    assertThat(executor.launched(TaskId.of("second"))).isEmpty();
  }

  @Test
  void cancellingARunningTaskTerminatesItsProcess() throws Exception {
    TaskHandle h = berth.submit(Tasks.command("long", "run"));
    events.awaitLaunch("long");

    h.cancel();

    assertThat(h.get(Duration.ofSeconds(10)).status()).isEqualTo(TaskStatus.CANCELLED);
    assertThat(executor.terminations()).extracting(FakeExecutor.Termination::task).containsExactly(TaskId.of("long"));
  }

  @Test
  void handlesComposeAsCompletableFuturesOffTheEngineThread() throws Exception {
    TaskHandle x = berth.submit(Tasks.command("x", "run").cpus(0));
    TaskHandle y = berth.submit(Tasks.command("y", "run").cpus(0).after(x));
    CompletableFuture<String> both = x.toCompletableFuture()
        .thenCombine(y.toCompletableFuture(), (rx, ry) -> rx.id() + "+" + ry.id() + " on " + Thread.currentThread().getName());

    events.awaitLaunch("x");
    executor.exit(TaskId.of("x"), 0);
    events.awaitLaunch("y");
    assertThat(both).isNotDone();
    executor.exit(TaskId.of("y"), 0);

    assertThat(both.get(10, TimeUnit.SECONDS)).startsWith("x+y on berth-callbacks-fake-");
  }

  @Test
  void completingTheFutureOfAHandleDoesNotEndTheTask() throws Exception {
    TaskHandle h = berth.submit(Tasks.command("z", "run"));
    h.toCompletableFuture().cancel(true);
    events.awaitLaunch("z");

    assertThat(h.isDone()).isFalse();
    executor.exit(TaskId.of("z"), 0);
    assertThat(h.get(Duration.ofSeconds(10)).succeeded()).isTrue();
  }

  @Test
  void aTaskWhoseDependencyFailedEndsUnreachable() throws Exception {
    TaskHandle first = berth.submit(Tasks.command("parent", "run"));
    TaskHandle child = berth.submit(Tasks.command("child", "run").after("parent"));
    events.awaitLaunch("parent");
    executor.exit(TaskId.of("parent"), 1);

    assertThat(first.get().status()).isEqualTo(TaskStatus.FAILED);
    assertThat(child.get(Duration.ofSeconds(10)).status()).isEqualTo(TaskStatus.UNREACHABLE);
  }

  @Test
  void submittingAnIdTwiceOrADependencyOnNoTaskIsRefusedAtOnce() {
    berth.submit(Tasks.command("taken", "run"));

    assertThatThrownBy(() -> berth.submit(Tasks.command("taken", "run")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task id 'taken' is already used in this session");
    assertThatThrownBy(() -> berth.submit(Tasks.command("orphan", "run").after("nobody")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'nobody' names no task submitted so far");
  }

  @Test
  void tasksSubmittedOneByOneShareTheSessionsTasksGroupInsteadOfAGroupEach() throws Exception {
    TaskHandle h = berth.submit(Tasks.command("solo", "run"));
    berth.submitGroup(Groups.of("solo-2", Tasks.command("other", "run").cpus(0)));
    TaskHandle again = berth.submit(Tasks.command("solo+1", "run").cpus(0).after("solo"));

    assertThat(h.group()).isEqualTo("tasks");
    assertThat(again.group()).isEqualTo("tasks");
    assertThat(h.workdir()).isEqualTo(berth.workdir().resolve("tasks").resolve("solo"));
    for (String id : List.of("solo", "other", "solo+1")) {
      events.awaitLaunch(id);
      executor.exit(TaskId.of(id), 0);
    }
    assertThat(again.get(Duration.ofSeconds(10)).succeeded()).isTrue();
    berth.close();
    assertThat(berth.report().orElseThrow().groups()).extracting(g -> g.name() + "=" + g.tasks().size())
        .containsExactly("tasks=2", "solo-2=1");
  }

  @Test
  void berthCancelFromAnotherProcessReachesTheSessionWhichStaysOpen() throws Exception {
    TaskHandle h = berth.submit(Tasks.command("remote", "run"));
    events.awaitLaunch("remote");

    CancelRequests.submit(berth.workdir(), new CancelRequests.Request(List.of(), "stopped from the shell"));

    assertThat(h.get(Duration.ofSeconds(10)).status()).isEqualTo(TaskStatus.CANCELLED);
    TaskHandle later = berth.submit(Tasks.command("later", "run"));
    events.awaitLaunch("later");
    executor.exit(TaskId.of("later"), 0);
    assertThat(later.get(Duration.ofSeconds(10)).succeeded()).isTrue();
  }
}

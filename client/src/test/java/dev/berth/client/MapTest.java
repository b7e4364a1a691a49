package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.TaskId;
import dev.berth.core.report.TaskStatus;
import dev.berth.testkit.FakeExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MapTest {

  @TempDir Path dir;

  private final FakeExecutor executor = new FakeExecutor();
  private final Events events = new Events();
  private Berth berth;

  private Berth open() {
    berth = Berth.local(Sessions.fake(dir, executor, events).build());
    return berth;
  }

  @AfterEach
  void close() {
    if (berth != null) {
      berth.close();
    }
  }

  /** Ends the task, as if it printed {@code stdout}. */
  private void finish(String id, String stdout) {
    executor.writeOutput(TaskId.of(id), stdout, "");
    executor.exit(TaskId.of(id), 0);
  }

  @Test
  void unorderedResultsComeInTheOrderTheTasksEnd() throws Exception {
    MapResults results = open().map(List.of("echo", "{}"), List.of("a", "b", "c"), MapOptions.defaults().ordered(false));
    for (int i = 0; i < 3; i++) {
      events.nextLaunch();
    }
    Iterator<MapResult> it = results.iterator();

    finish("map1-2", "C\n");
    MapResult first = it.next();
    finish("map1-0", "A\n");
    MapResult second = it.next();
    finish("map1-1", "B\n");
    MapResult third = it.next();

    assertThat(List.of(first, second, third)).extracting(MapResult::index).containsExactly(2, 0, 1);
    assertThat(List.of(first, second, third)).extracting(MapResult::value).containsExactly("C", "A", "B");
    assertThat(it.hasNext()).isFalse();
    assertThat(results.stream().map(MapResult::input).toList()).containsExactly("c", "a", "b"); // a replay
  }

  @Test
  void orderedResultsComeInInputOrderWhateverOrderTheTasksEnd() throws Exception {
    MapResults results = open().map(List.of("echo", "{}"), List.of("a", "b", "c"));
    for (int i = 0; i < 3; i++) {
      events.nextLaunch();
    }
    finish("map1-2", "C\n");
    finish("map1-1", "B\n");
    assertThat(results.isDone()).isFalse();
    finish("map1-0", "A\n");

    assertThat(results.values()).containsExactly("A", "B", "C");
    assertThat(results.toList()).extracting(MapResult::index).containsExactly(0, 1, 2);
    assertThat(executor.lastLaunch(TaskId.of("map1-1")).command()).containsExactly("echo", "b");
  }

  @Test
  void maxOutstandingTwoNeverHasMoreThanTwoTasksUnfinished() throws Exception {
    MapResults results = open().map(List.of("work", "{}"), List.of(1, 2, 3, 4, 5), MapOptions.defaults().maxOutstanding(2));
    for (int i = 0; i < 5; i++) {
      String id = events.nextLaunch();
      finish(id, id + "\n");
    }

    assertThat(results.values()).containsExactly("map1-0", "map1-1", "map1-2", "map1-3", "map1-4");
    assertThat(events.maxUnfinished()).isEqualTo(2);
  }

  @Test
  void withoutBackPressureEveryInputIsSubmittedAtOnce() throws Exception {
    MapResults results = open().map(List.of("work", "{}"), List.of(1, 2, 3, 4, 5));
    for (int i = 0; i < 5; i++) {
      events.nextLaunch();
    }
    for (int i = 0; i < 5; i++) {
      finish("map1-" + i, "ok\n");
    }

    assertThat(results.values()).hasSize(5);
    assertThat(events.maxUnfinished()).isEqualTo(5);
  }

  @Test
  void aFailedTaskThrowsWhenReachedUnlessExceptionsAreReturnedAsValues() throws Exception {
    open();
    MapResults thrown = berth.map(List.of("work", "{}"), List.of("x"), MapOptions.defaults().idPrefix("t"));
    MapResults returned = berth.map(List.of("work", "{}"), List.of("x"), MapOptions.defaults().idPrefix("r").returnExceptions(true));
    events.awaitLaunch("t-0");
    events.awaitLaunch("r-0");
    executor.exit(TaskId.of("t-0"), 1);
    executor.exit(TaskId.of("r-0"), 1);

    assertThatThrownBy(thrown::values).isInstanceOf(TaskFailedException.class).hasMessageContaining("task t-0 ended FAILED");
    MapResult r = returned.toList().get(0);
    assertThat(r.succeeded()).isFalse();
    assertThat(r.value()).isInstanceOf(TaskFailedException.class);
    assertThat(r.task().status()).isEqualTo(TaskStatus.FAILED);
  }

  @Test
  void aTaskWithAResultFileGivesItsResultMapAndMapInputsFillNamedPlaceholders() throws Exception {
    open();
    TaskTemplate template = Tasks.template("fit-{index}", "fit", "--lr", "{lr}", "--seed", "{seed}").memory("1MiB");
    MapResults results = berth.map(template, List.of(Map.of("lr", 0.1, "seed", 7)), MapOptions.defaults());
    events.awaitLaunch("fit-0");
    Path taskDir = executor.lastLaunch(TaskId.of("fit-0")).workdir();
    Files.createDirectories(taskDir);
    Files.writeString(taskDir.resolve("result.json"), "{\"loss\": 0.5}");
    executor.exit(TaskId.of("fit-0"), 0);

    MapResult r = results.toList().get(0);
    assertThat(r.map()).hasValueSatisfying(m -> assertThat(m).containsOnlyKeys("loss"));
    assertThat(r.task().params()).containsEntry("lr", "0.1").containsEntry("seed", "7");
    assertThat(executor.lastLaunch(TaskId.of("fit-0")).command()).containsExactly("fit", "--lr", "0.1", "--seed", "7");
    assertThat(executor.lastLaunch(TaskId.of("fit-0")).env()).containsEntry("BERTH_PARAM_LR", "0.1");
  }

  @Test
  void closingTheSessionInterruptsTheRunningInputAndEndsInputsNotSubmittedYetAsCancelled() throws Exception {
    open();
    MapResults results = berth.map(List.of("work"), List.of(1, 2, 3), MapOptions.defaults().maxOutstanding(1).returnExceptions(true));
    events.awaitLaunch("map1-0");

    berth.close();

    assertThat(results.toList()).extracting(r -> r.task().status())
        .containsExactly(TaskStatus.INTERRUPTED, TaskStatus.CANCELLED, TaskStatus.CANCELLED);
    assertThat(executor.launched(TaskId.of("map1-1"))).isEmpty();
  }

  @Test
  void aPlaceholderWithoutAValueIsRefusedBeforeAnythingStarts() {
    open();

    assertThatThrownBy(() -> berth.map(List.of("work", "{size}"), List.of(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("placeholder '{size}' has no value");
    assertThat(executor.launches()).isEmpty();
  }
}

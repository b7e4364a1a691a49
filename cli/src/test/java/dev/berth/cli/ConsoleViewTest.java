package dev.berth.cli;

import static dev.berth.testkit.TaskSpecs.run;
import static dev.berth.testkit.TaskSpecs.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.RunState;
import dev.berth.testkit.FakeClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What the console says as a run goes on, when it is not a terminal. */
class ConsoleViewTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final ConsoleView view = new ConsoleView(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, false,
      new FakeClock(T0));

  @Test
  void aGroupIsSummedUpOnceWhenItsLastTaskEndsWithTheCountsOfEveryTask() {
    RunState state = new RunState(run("r").group("g", task("a").build(), task("b").build(), task("c").build()).build());
    view.runStarted(state);

    cancel(state, "a");
    cancel(state, "b");
    String beforeTheLast = out();
    cancel(state, "c");

    assertThat(beforeTheLast).doesNotContain("group g:");
    assertThat(out().lines().filter(l -> l.startsWith("group g:")))
        .containsExactly("group g: 3 tasks: 0 succeeded, 3 cancelled in 0ms");
  }

  private void cancel(RunState state, String task) {
    TaskEvent event = new TaskEvent.Settled(T0, TaskState.CANCELLED, "cancelled by test");
    state.apply(TaskId.of(task), event);
    view.taskEvent(state.task(TaskId.of(task)), event);
  }

  private String out() {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}

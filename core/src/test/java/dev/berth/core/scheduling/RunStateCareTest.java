package dev.berth.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunStateCareTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void theCountOfReadyTasksNeedingCareFollowsTasksInAndOutOfTheReadySet() {
    RunState state = new RunState(new RunSpec("r", "w", SchedulerConfig.DEFAULTS, List.of(new GroupSpec("g", List.of(
        TaskSpec.builder("plain", "g").command("x").build(),
        TaskSpec.builder("no-cores", "g").command("x").cpus(0).build())))));
    state.apply(TaskId.of("plain"), new TaskEvent.Released(T0));
    state.apply(TaskId.of("no-cores"), new TaskEvent.Released(T0));
    assertThat(state.readyNeedingCare()).as("only the task asking for no cores").isEqualTo(1);

    state.apply(TaskId.of("plain"), new TaskEvent.Launched(T0, 1, Placement.cpu(0, 1000), -1, false));
    state.apply(TaskId.of("no-cores"), new TaskEvent.Launched(T0, 1, Placement.cpu(0, 0), -1, false));
    assertThat(state.readyNeedingCare()).as("launching takes tasks out, whatever their history says now").isZero();

    state.apply(TaskId.of("plain"), Endings.exited(T0, 0));
    state.apply(TaskId.of("no-cores"), new TaskEvent.Ended(T0, dev.berth.core.lifecycle.Outcome.FAILED, 1, "x",
        dev.berth.core.lifecycle.TaskState.READY));
    assertThat(state.readyNeedingCare()).as("a task back for a retry waits for its delay: it needs care").isEqualTo(1);
  }
}

package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.ExecutorKind;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.RunState;
import dev.berth.os.CommandRunner;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jobs {@code berth cancel} cancels itself when no Berth runs the run. */
class LeftJobsTest {

  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

  @TempDir Path dir;

  @Test
  void aParentsDependantsTheClusterHoldsAreCancelledTooAndBeforeIt() throws Exception {
    RunState state = running(
        TaskSpec.builder("a-parent", "g").command("x").build(),
        TaskSpec.builder("m-child", "g").command("x").after(Dependency.allSucceeded(List.of(TaskId.of("a-parent"))))
            .build(),
        TaskSpec.builder("z-grandchild", "g").command("x")
            .after(Dependency.allSucceeded(List.of(TaskId.of("m-child")))).build(),
        TaskSpec.builder("other", "g").command("x").build());
    List<List<String>> calls = new ArrayList<>();
    CommandRunner scancel = (argv, timeout) -> {
      calls.add(argv);
      return CommandRunner.Result.exited(0, "");
    };

    List<List<String>> waves = LeftJobs.matching(state, dir, List.of("a-parent"));
    LeftJobs.cancel(scancel, waves);

    assertThat(waves).containsExactly(List.of("12"), List.of("11"), List.of("10"));
    assertThat(calls).containsExactly(List.of("scancel", "12"), List.of("scancel", "11"), List.of("scancel", "10"));
    assertThat(LeftJobs.matching(state, dir, List.of()))
        .containsExactly(List.of("12"), List.of("11"), List.of("10", "13"));
  }

  /** A Slurm run whose tasks were all submitted, as jobs 10, 11, … in order. */
  private RunState running(TaskSpec... specs) {
    SchedulerConfig slurm = SchedulerConfig.builder().set(SchedulerKeys.EXECUTOR, ExecutorKind.SLURM).build();
    RunState state = new RunState(new RunSpec("r", dir.toString(), slurm, List.of(new GroupSpec("g", List.of(specs)))));
    state.started(T0);
    int job = 10;
    for (TaskSpec spec : specs) {
      state.apply(spec.id(), new TaskEvent.Released(T0));
      state.apply(spec.id(), new TaskEvent.Launched(T0, 1, new Placement(Placement.CLUSTER, 0, 0, 0), -1, false));
      state.apply(spec.id(), new TaskEvent.Submitted(T0, 1, Integer.toString(job++)));
    }
    return state;
  }
}

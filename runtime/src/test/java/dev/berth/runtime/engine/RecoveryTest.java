package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.Attempts;
import dev.berth.core.scheduling.RunState;
import dev.berth.testkit.FakeClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the attempts a dead Berth left are said to have ended, as its reports will show them. */
class RecoveryTest {

  private static final long GIB = 1L << 30;
  private static final TaskId T0 = TaskId.of("t0");

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final SchedulerConfig config = SchedulerConfig.builder().build();

  /** A machine where no process of the run is left. */
  private static final ProcessTable EMPTY = new ProcessTable() {
    @Override
    public Stream<ProcessHandle> all() {
      return Stream.empty();
    }

    @Override
    public Optional<ProcessHandle> of(long pid) {
      return Optional.empty();
    }

    @Override
    public Optional<List<String>> commandLine(long pid) {
      return Optional.empty();
    }

    @Override
    public Optional<Map<String, String>> berthVariables(long pid) {
      return Optional.empty();
    }

    @Override
    public void endLeftovers(List<String> all, List<String> none, Collection<Path> groups) {}
  };

  private RunState launched(Instant at, boolean seenToStart) {
    TaskSpec spec = TaskSpec.builder("t0", "g").command("x").cpus(0).gpuMemoryBytes(10 * GIB).build();
    RunState state = new RunState(new RunSpec("r", dir.toString(), config, List.of(new GroupSpec("g", List.of(spec)))));
    state.started(at);
    state.apply(T0, new TaskEvent.Released(at));
    state.apply(T0, new TaskEvent.Launched(at, 1, new Placement("cuda:0", 0, 0, 10 * GIB), -1, false));
    if (seenToStart) {
      state.apply(T0, new TaskEvent.Started(at, 1, 4242));
    }
    return state;
  }

  private List<TaskEvent> settled(RunState state) throws Exception {
    Files.createDirectories(dir);
    List<TaskEvent> recorded = new ArrayList<>();
    Recovery.settle(state, new RunLayout(dir), clock.instant(), new Attempts(config), (task, e) -> recorded.add(e),
        (task, execution) -> {}, ExitMarks.of(dir), EMPTY, clock);
    return recorded;
  }

  @Test
  void anAttemptNeverSeenToStartWithNoProcessNorExitEndsWhenItWasLaunchedForItNeverRan() throws Exception {
    Instant launch = clock.instant();
    RunState state = launched(launch, false);
    clock.advance(Duration.ofSeconds(30)); // the resume comes much later

    assertThat(settled(state)).singleElement().isInstanceOfSatisfying(TaskEvent.Ended.class, e -> {
      assertThat(e.outcome()).isEqualTo(Outcome.INTERRUPTED);
      assertThat(e.at()).as("reports show it holding nothing while no Berth was alive").isEqualTo(launch);
    });
  }

  @Test
  void anAttemptThatStartedAndLeftNoTraceEndsWhenTheResumeFindsItGoneForItsEndIsUnknown() throws Exception {
    RunState state = launched(clock.instant(), true);
    clock.advance(Duration.ofSeconds(30));

    assertThat(settled(state)).singleElement().isInstanceOfSatisfying(TaskEvent.Ended.class,
        e -> assertThat(e.at()).isEqualTo(clock.instant()));
  }
}

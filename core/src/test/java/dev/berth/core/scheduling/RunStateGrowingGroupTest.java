package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.group;
import static dev.berth.core.scheduling.SchedulingFixtures.id;
import static dev.berth.core.scheduling.SchedulingFixtures.startedRun;
import static dev.berth.core.scheduling.SchedulingFixtures.task;
import static dev.berth.core.scheduling.SchedulingFixtures.unlimited;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.TaskSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Tasks submitted one by one into a group of the run that exists already make that group grow. */
class RunStateGrowingGroupTest {

  @Test
  void aGroupAddedUnderAnExistingNameGrowsByItsTasks() {
    RunState state = startedRun(unlimited().build(), true, group("tasks", task("a", "tasks", GIB, 1)));

    state.add(group("tasks", task("b", "tasks", GIB, 1)), T0.plusSeconds(5));
    state.add(group("other", task("c", "other", GIB, 1)), T0.plusSeconds(6));
    state.add(group("tasks", task("d", "tasks", GIB, 1)), T0.plusSeconds(7));

    assertThat(state.spec().groups()).extracting(GroupSpec::name).containsExactly("tasks", "other");
    assertThat(state.spec().groups().get(0).tasks()).extracting(t -> t.id().value()).containsExactly("a", "b", "d");
    assertThat(state.task(id("d")).groupIndex()).isZero();
    assertThat(state.queued()).extracting(r -> r.spec().id().value()).containsExactly("a", "b", "c", "d");
  }

  @Test
  void eachAddedTasksQueueTimeoutCountsFromWhenItWasAdded() {
    RunState state = startedRun(unlimited().build(), true, group("tasks", task("a", "tasks", GIB, 1)));

    state.add(group("tasks", task("b", "tasks", GIB, 1)), T0.plus(Duration.ofMinutes(3)));

    assertThat(state.pendingSince(state.task(id("a")))).contains(T0);
    assertThat(state.pendingSince(state.task(id("b")))).contains(T0.plus(Duration.ofMinutes(3)));
  }

  @Test
  void aTaskIdUsedAlreadyIsStillRefused() {
    RunState state = startedRun(unlimited().build(), true, group("tasks", task("a", "tasks", GIB, 1)));
    TaskSpec again = task("a", "tasks", GIB, 1);

    assertThatThrownBy(() -> state.add(group("tasks", again), T0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(state.spec().groups().get(0).tasks()).hasSize(1);
  }
}

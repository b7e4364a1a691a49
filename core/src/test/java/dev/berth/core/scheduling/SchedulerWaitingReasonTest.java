package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.group;
import static dev.berth.core.scheduling.SchedulingFixtures.host;
import static dev.berth.core.scheduling.SchedulingFixtures.startedRun;
import static dev.berth.core.scheduling.SchedulingFixtures.unlimited;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.Dependency;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Why a task that was not started waits, in the words people read in berth status and the console. */
class SchedulerWaitingReasonTest {

  private static final HostSnapshot TWO_CORES = host(T0, 2, 16 * GIB, 16 * GIB);

  private static TaskSpec.Builder t(String id, String group, double cpus) {
    return TaskSpec.builder(id, group).command("run", id).cpus(cpus).memoryBytes(GIB / 4);
  }

  private static Map<String, String> reasons(Decisions d) {
    Map<String, String> byTask = new TreeMap<>();
    d.waiting().forEach(w -> byTask.put(w.task().value(), w.describe()));
    return byTask;
  }

  @Test
  void tasksAskingOneCoreWhenNoneIsLeftAreHeldBackInWholeCoresNotThousandths() {
    SchedulerConfig config = unlimited().build();
    RunState state = startedRun(config, false, group("g", t("a", "g", 1), t("b", "g", 1), t("c", "g", 1), t("d", "g", 1)));

    Decisions d = SchedulingFixtures.pass(new Scheduler(config), state, TWO_CORES, T0);

    assertThat(d.starts()).hasSize(2);
    assertThat(d.blockedBy()).isPresent();
    assertThat(d.blockedBy().get().describe())
        .isEqualTo("cpus on host: none free (2 reserved by Berth) [logical CPUs of the host]")
        .doesNotContain("0.001");
  }

  @Test
  void aTaskThatDoesNotFitTheCoresLeftNamesItsAskInCores() {
    SchedulerConfig config = unlimited().build();
    RunState state = startedRun(config, false, group("g", t("a", "g", 1).priority(1), t("big", "g", 2)));

    Decisions d = SchedulingFixtures.pass(new Scheduler(config), state, TWO_CORES, T0);

    assertThat(reasons(d)).containsEntry("big", "cpus on host: asked 2, free 1 (1 reserved by Berth) [logical CPUs of the host]");
  }

  @Test
  void aTaskWaitingForItsDependenciesSaysSoInsteadOfNamingAResource() {
    SchedulerConfig config = unlimited().build();
    RunState state = startedRun(config, false, group("g",
        t("a", "g", 1), t("b", "g", 1), t("c", "g", 1),
        t("after-a", "g", 1).after(Dependency.allSucceeded(List.of(TaskId.of("a"))))));

    Decisions d = SchedulingFixtures.pass(new Scheduler(config), state, TWO_CORES, T0);

    assertThat(reasons(d)).containsEntry("after-a", "dependencies (a succeeded)");
    assertThat(d.waiting().stream().filter(w -> w.task().value().equals("after-a")).findFirst().orElseThrow()
        .forResources()).isFalse();
  }

  @Test
  void aTaskOfALaterGroupWaitsForItsGroupsTurn() {
    SchedulerConfig config = unlimited().build();
    RunState state = startedRun(config, false,
        group("prepare", t("a", "prepare", 1)), group("train", t("x", "train", 1), t("y", "train", 1)));

    Decisions d = SchedulingFixtures.pass(new Scheduler(config), state, TWO_CORES, T0);

    assertThat(reasons(d))
        .containsEntry("x", "its group's turn (group prepare runs first)")
        .containsEntry("y", "its group's turn (group prepare runs first)");
  }

  @Test
  void groupsThatRunInParallelNeverWaitForATurn() {
    SchedulerConfig config = unlimited().build();
    RunState state = startedRun(config, true,
        group("prepare", t("a", "prepare", 0)), group("train", t("x", "train", 0)));

    Decisions d = SchedulingFixtures.pass(new Scheduler(config), state, TWO_CORES, T0);

    assertThat(d.starts()).hasSize(2);
    assertThat(d.waiting()).isEmpty();
  }
}

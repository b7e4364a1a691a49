package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Progress;
import dev.berth.spi.SharedReservations.Reservation;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.spi.SharedReservations.RunEntry;
import dev.berth.spi.SharedReservations.Share;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** A run whose Berth was killed keeps what it held while its task processes live, as a fake process table shows them. */
class DeadRunTasksTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final long GIB = 1L << 30;
  private static final long LIMIT = 24 * GIB;
  private static final String DEVICE = "sim:24GiB#0";

  private final MemoryStore store = new MemoryStore();
  private final Set<Long> berths = new TreeSet<>(); // live Berth pids
  // run folders with a live task process, and when the first of them started (clock ticks after boot)
  private final Map<String, Long> taskDirs = new TreeMap<>();
  private Set<String> liveTasks = Set.of(TaskProcesses.UNKNOWN); // which of their tasks live

  private SharedReservations joined(String name, long pid) {
    return joined(name, pid, 1);
  }

  private SharedReservations joined(String name, long pid, long pidStart) {
    berths.add(pid);
    SharedReservations l = new SharedLedger(store, "h", (p, start) -> berths.contains(p),
        (runDir, uid, start) -> taskDirs.containsKey(runDir) && taskDirs.get(runDir) >= start
            ? liveTasks : Set.of(), HostLimits.NONE);
    l.join(new Run(name + "-" + pid, name, "/runs/" + name, 1000, "alice", pid, pidStart), T0);
    return l;
  }

  private static Claim gpu(String task, long gib) {
    return new Claim(task, 0, 0, 8000, List.of(new Share(DEVICE, "cuda:0", gib * GIB, LIMIT)));
  }

  private static Progress progress() {
    return new Progress("running", 0, 0, 0, 2);
  }

  @Test
  void aKilledRunsHoldsStayWhileItsTasksRunAndGoWithTheLastOfThem() {
    SharedReservations r2 = joined("r2", 42);
    r2.take(gpu("t-1", 10), T0);
    r2.take(gpu("t-2", 10), T0);
    taskDirs.put("/runs/r2", 2L);
    SharedReservations r1 = joined("r1", 43);

    berths.remove(42L); // kill -9: its tasks go on
    List<Reservation> seen = r1.look(progress(), List.of(), T0.plusSeconds(1));

    assertThat(seen).extracting(Reservation::task).containsExactly("t-1", "t-2");
    assertThat(r1.take(gpu("u-1", 10), T0.plusSeconds(1))).as("20 of 24 GiB still held")
        .hasValueSatisfying(why -> assertThat(why).contains("run r2 of user alice"));
    RunEntry dead = r1.runs(false, T0.plusSeconds(1)).stream().filter(r -> r.name().equals("r2")).findFirst()
        .orElseThrow();
    assertThat(dead.progress().state()).isEqualTo("lost, tasks live");
    assertThat(dead.reservations()).hasSize(2);

    taskDirs.remove("/runs/r2"); // the last task process exited
    assertThat(r1.look(progress(), List.of(), T0.plusSeconds(2))).isEmpty();
    assertThat(r1.take(gpu("u-1", 20), T0.plusSeconds(2))).isEmpty();
    assertThat(r1.runs(true, T0.plusSeconds(2))).filteredOn(r -> r.name().equals("r2"))
        .extracting(r -> r.progress().state()).containsExactly("lost");
  }

  @Test
  void theRunThatResumesAKilledRunInItsFolderTakesOverWhatItsTasksHold() {
    SharedReservations r2 = joined("r2", 42);
    r2.take(gpu("t-1", 20), T0);
    taskDirs.put("/runs/r2", 2L);
    berths.remove(42L);
    joined("r1", 43).look(progress(), List.of(), T0.plusSeconds(1));

    SharedReservations resumed = joined("r2", 44);

    assertThat(resumed.take(gpu("t-1", 20), T0.plusSeconds(2))).as("the adopted task takes its share anew").isEmpty();
    assertThat(resumed.runs(false, T0.plusSeconds(2))).extracting(RunEntry::run).doesNotContain("r2-42");
  }

  @Test
  void aResumedRunHoldsWhatItsKilledPredecessorHeldFromTheMomentItJoins() {
    SharedReservations killed = joined("r2", 42);
    killed.take(gpu("t-1", 20), T0);
    taskDirs.put("/runs/r2", 2L);
    berths.remove(42L);
    SharedReservations other = joined("r1", 43);

    joined("r2", 44, 10); // the resume joins; its adoption comes later, in another step

    assertThat(other.take(gpu("u-1", 10), T0.plusSeconds(1))).as("the adopted task's 20 GiB stay held")
        .isPresent();
    assertThat(other.look(progress(), List.of(), T0.plusSeconds(1))).extracting(Reservation::run, Reservation::task)
        .containsExactly(tuple("r2-44", "t-1"));
  }

  @Test
  void anAdoptionKeepsWhatItsTasksHoldAndGivesBackWhatTheTasksItDidNotAdoptHeld() {
    SharedReservations killed = joined("r2", 42);
    killed.take(gpu("t-1", 10), T0);
    killed.take(gpu("t-2", 10), T0);
    taskDirs.put("/runs/r2", 2L);
    berths.remove(42L);
    SharedReservations other = joined("r1", 43);
    SharedReservations resumed = joined("r2", 44, 10);

    resumed.adopt(List.of(gpu("t-1", 10)), T0.plusSeconds(1)); // t-2 ended while no Berth watched it

    assertThat(other.look(progress(), List.of(), T0.plusSeconds(1))).extracting(Reservation::task)
        .containsExactly("t-1");
    assertThat(other.take(gpu("u-1", 14), T0.plusSeconds(1))).isEmpty();
  }

  @Test
  void anAdoptionIsNeverRefusedForItsProcessesUseWhatTheyUseWhateverTheLedgerSays() {
    SharedReservations killed = joined("r2", 42);
    killed.take(gpu("t-1", 10), T0);
    berths.remove(42L); // killed, and no task process seen: what it held goes back
    SharedReservations other = joined("r1", 43);
    assertThat(other.take(gpu("u-1", 20), T0.plusSeconds(1))).isEmpty();
    SharedReservations resumed = joined("r2", 44, 10);

    resumed.adopt(List.of(gpu("t-1", 10)), T0.plusSeconds(2));

    assertThat(other.look(progress(), List.of(), T0.plusSeconds(2))).extracting(Reservation::task)
        .containsExactly("t-1");
    assertThat(other.take(gpu("u-2", 1), T0.plusSeconds(2))).as("30 GiB booked of 24").isPresent();
  }

  @Test
  void aResumedRunKilledInTurnKeepsItsAdoptedTasksHoldsThoughTheyStartedBeforeIt() {
    SharedReservations killed = joined("r2", 42);
    killed.take(gpu("t-1", 20), T0);
    taskDirs.put("/runs/r2", 2L); // started after the first Berth (1), before its resume (10)
    berths.remove(42L);
    SharedReservations resumed = joined("r2", 44, 10);
    resumed.adopt(List.of(gpu("t-1", 20)), T0.plusSeconds(1));

    berths.remove(44L); // the resume is killed too: t-1 runs on
    SharedReservations other = joined("r1", 43);

    assertThat(other.take(gpu("u-1", 10), T0.plusSeconds(2))).isPresent();
    assertThat(other.runs(false, T0.plusSeconds(2))).filteredOn(r -> r.run().equals("r2-44"))
        .extracting(r -> r.progress().state()).containsExactly("lost, tasks live");
  }

  @Test
  void aKilledRunGivesBackWhatATaskHeldOnceNoProcessOfThatTaskLives() {
    SharedReservations killed = joined("r2", 42);
    killed.take(gpu("t-1", 10), T0);
    killed.take(gpu("t-2", 10), T0);
    taskDirs.put("/runs/r2", 2L);
    liveTasks = Set.of("t-1"); // t-2 ended, and left nothing behind
    berths.remove(42L);
    SharedReservations other = joined("r1", 43);

    assertThat(other.look(progress(), List.of(), T0.plusSeconds(1))).extracting(Reservation::task)
        .containsExactly("t-1");
    assertThat(other.take(gpu("u-1", 14), T0.plusSeconds(1))).isEmpty();
  }

  @Test
  void anAttemptAResumedRunAdoptedIsTakenThoughATaskOfAnotherRunComesBeforeItInTheHostWideOrder() {
    SharedReservations other = joined("r1", 43);
    other.waiting(List.of(new SharedReservations.Demand("u-1", 10, 0, 0, 20 * GIB, 1, gpu("u-1", 20).shares())), T0);
    SharedReservations resumed = joined("r2", 44);

    assertThat(resumed.take(gpu("t-1", 10), T0)).as("a start waits its turn")
        .hasValueSatisfying(why -> assertThat(why).contains("[host-wide order]"));
    resumed.adopt(List.of(gpu("t-1", 10)), T0);
    assertThat(other.look(progress(), List.of(), T0)).as("its process runs already: it has no turn to wait")
        .extracting(Reservation::task).containsExactly("t-1");
  }
}

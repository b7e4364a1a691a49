package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Demand;
import dev.berth.spi.SharedReservations.Progress;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.spi.SharedReservations.RunEntry;
import dev.berth.spi.SharedReservations.Share;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A new host ledger file exists only whole: in WAL mode with its tables, however many open it at once. */
class LedgerFileTest {

  @TempDir Path dir;

  @Test
  void runsOpeningANewLedgerAtOnceAllGetItAndItIsWholeFromTheStart() throws Exception {
    Path host = dir.resolve("host");
    Files.createDirectories(host);
    ExecutorService threads = Executors.newFixedThreadPool(6);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<SharedReservations>> opened = new ArrayList<>();
    try {
      for (int i = 0; i < 6; i++) {
        opened.add(threads.submit(() -> {
          go.await();
          return HostLedgers.open(host);
        }));
      }
      go.countDown();
      for (Future<SharedReservations> f : opened) {
        f.get(60, TimeUnit.SECONDS).close();
      }
    } finally {
      threads.shutdownNow();
    }

    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + host.resolve(HostLedgers.FILE));
        Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("wal");
    }
    try (Stream<Path> left = Files.list(host)) {
      assertThat(left.map(p -> p.getFileName().toString())).as("nothing made beside it is left")
          .noneMatch(name -> name.endsWith(".new"));
    }
  }

  @Test
  void aLedgerRemovedUnderALiveRunIsMadeAgainWithTheRunAndWhatItHoldsAtItsNextLook() throws Exception {
    Path host = dir.resolve("host");
    java.time.Instant t0 = java.time.Instant.parse("2026-01-01T00:00:00Z");
    SharedReservations.Claim claim = new SharedReservations.Claim("t-1", 0, 0, 8000,
        List.of(new SharedReservations.Share("sim:24GiB#0", "cuda:0", 20L << 30, 24L << 30)));
    SharedReservations.Progress progress = new SharedReservations.Progress("running", 1, 0, 0, 2);
    try (SharedReservations r1 = HostLedgers.open(host)) {
      r1.join(HostLedgers.self("r1", "/runs/r1"), t0);
      assertThat(r1.take(claim, t0)).isEmpty();
      r1.waiting(List.of(new SharedReservations.Demand("t-2", 0, 0, 0, 20L << 30, 1, claim.shares())), t0);
      for (String suffix : List.of("", "-wal", "-shm")) {
        Files.deleteIfExists(host.resolve(HostLedgers.FILE + suffix));
      }

      r1.look(progress, List.of(), t0.plusSeconds(1));

      try (SharedReservations r2 = HostLedgers.open(host)) {
        r2.join(HostLedgers.self("r2", "/runs/r2"), t0.plusSeconds(1));
        java.time.Instant later = t0.plusSeconds(1).plus(LedgerFile.REMADE_GRACE);
        assertThat(r2.take(new SharedReservations.Claim("u-1", 0, 0, 8000, claim.shares()), later))
            .hasValueSatisfying(why -> assertThat(why).contains("held by run r1"));
        assertThat(r2.runs(false, t0.plusSeconds(1))).extracting(SharedReservations.RunEntry::name)
            .containsExactly("r1", "r2");
      }
    }
  }

  @Test
  void aReaderOfALedgerRemovedAndMadeAgainReadsTheNewOne() throws Exception {
    Path host = dir.resolve("host");
    java.time.Instant t0 = java.time.Instant.parse("2026-01-01T00:00:00Z");
    try (SharedReservations ps = HostLedgers.open(host)) {
      assertThat(ps.runs(false, t0)).isEmpty();
      for (String suffix : List.of("", "-wal", "-shm")) {
        Files.deleteIfExists(host.resolve(HostLedgers.FILE + suffix));
      }
      try (SharedReservations r1 = HostLedgers.open(host)) {
        r1.join(HostLedgers.self("r1", "/runs/r1"), t0);

        assertThat(ps.runs(false, t0)).extracting(SharedReservations.RunEntry::name).containsExactly("r1");
      }
    }
  }

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Progress RUNNING = new Progress("running", 1, 0, 0, 2);

  private final Set<Long> berths = new TreeSet<>(); // live Berth pids
  private final Set<String> taskDirs = new TreeSet<>(); // run folders with a live task process

  private static Claim gpu(String task, long gib) {
    return new Claim(task, 0, 0, 8000, List.of(new Share("sim:24GiB#0", "cuda:0", gib << 30, 24L << 30)));
  }

  /** A ledger of the host folder whose processes are {@link #berths} and {@link #taskDirs}. */
  private SharedReservations ledger(Path host) {
    return HostLedgers.open(host, (pid, start) -> berths.contains(pid), new TaskProcesses() {
      @Override
      public Set<String> liveTasks(String runDir, long uid, long berthStart) {
        return taskDirs.contains(runDir) ? Set.of(UNKNOWN) : Set.of();
      }

      @Override
      public Set<String> runFolders(String ledger) {
        return Set.copyOf(taskDirs);
      }
    });
  }

  private SharedReservations joined(Path host, String name, long uid, long pid, Instant at) {
    berths.add(pid);
    SharedReservations l = ledger(host);
    l.join(new Run(name, name, "/runs/" + name, uid, "user" + uid, pid, 1), at);
    return l;
  }

  private static void removeTheLedger(Path host) throws IOException {
    for (String suffix : List.of("", "-wal", "-shm")) {
      Files.deleteIfExists(host.resolve(HostLedgers.FILE + suffix));
    }
  }

  /** What each live run holds, as a run that opens the ledger now reads it: "run task key". */
  private List<String> heldNow(Path host, Instant at) {
    try (SharedReservations reader = ledger(host)) {
      return reader.runs(false, at).stream().flatMap(r -> r.reservations().stream())
          .map(h -> h.runName() + " " + h.task() + " " + h.label()).toList();
    }
  }

  @Test
  void aClaimAfterTheLedgerWasRemovedGoesToTheNewOneWhichHasWhatTheRunHeld() throws Exception {
    Path host = dir.resolve("host");
    try (SharedReservations r1 = joined(host, "r1", 1000, 41, T0)) {
      assertThat(r1.take(gpu("t-1", 10), T0)).isEmpty();
      removeTheLedger(host);

      assertThat(r1.take(gpu("t-2", 10), T0.plusSeconds(1))).as("it carried the whole removed file first").isEmpty();

      assertThat(heldNow(host, T0.plusSeconds(1))).containsExactly("r1 t-1 cuda:0", "r1 t-2 cuda:0");
    }
  }

  @Test
  void aReleaseAfterTheLedgerWasRemovedGoesToTheNewOne() throws Exception {
    Path host = dir.resolve("host");
    try (SharedReservations r1 = joined(host, "r1", 1000, 41, T0)) {
      assertThat(r1.take(gpu("t-1", 10), T0)).isEmpty();
      assertThat(r1.take(gpu("t-2", 10), T0)).isEmpty();
      removeTheLedger(host);

      r1.release("t-1", T0.plusSeconds(1));

      assertThat(heldNow(host, T0.plusSeconds(1))).containsExactly("r1 t-2 cuda:0");
    }
  }

  @Test
  void theRunThatReopensTheLedgerCarriesEveryLiveRunOfEveryUserWithWhatItHoldsAndWhatWaits() throws Exception {
    Path host = dir.resolve("host");
    try (SharedReservations r1 = joined(host, "r1", 1000, 41, T0);
        SharedReservations r2 = joined(host, "r2", 2000, 42, T0);
        SharedReservations r3 = joined(host, "r3", 2000, 43, T0)) {
      assertThat(r2.take(gpu("t-1", 10), T0)).isEmpty();
      r2.waiting(List.of(new Demand("t-2", 0, 0, 0, 20L << 30, 1, gpu("t-2", 20).shares())), T0);
      assertThat(r3.take(gpu("t-1", 8), T0)).isEmpty();
      berths.remove(43L); // r3's Berth is killed; its task goes on
      taskDirs.add("/runs/r3");
      r1.look(RUNNING, List.of(), T0.plusSeconds(1));
      removeTheLedger(host);

      r1.look(RUNNING, List.of(), T0.plusSeconds(2));

      assertThat(heldNow(host, T0.plusSeconds(2))).containsExactlyInAnyOrder("r2 t-1 cuda:0", "r3 t-1 cuda:0");
      try (SharedReservations reader = ledger(host)) {
        assertThat(reader.runs(false, T0.plusSeconds(2))).extracting(RunEntry::name, r -> r.progress().state())
            .containsExactlyInAnyOrder(tuple("r1", "running"), tuple("r2", "starting"),
                tuple("r3", SharedLedger.TASKS_LIVE));
      }
      assertThat(waitsIn(host)).containsExactly("r2 t-2");
    }
  }

  @Test
  void whatAnotherRunPublishedInTheNewLedgerIsNeverOverwrittenByWhatIsCarriedFromTheOldFile() throws Exception {
    Path host = dir.resolve("host");
    try (SharedReservations r1 = joined(host, "r1", 1000, 41, T0);
        SharedReservations r2 = joined(host, "r2", 2000, 42, T0);
        SharedReservations r3 = joined(host, "r3", 2000, 43, T0)) {
      assertThat(r2.take(gpu("t-1", 10), T0)).isEmpty();
      assertThat(r3.take(gpu("t-1", 4), T0)).isEmpty();
      removeTheLedger(host);
      r2.look(RUNNING, List.of(), T0.plusSeconds(1)); // r2 makes the new file, carrying r1 and r3
      r2.release("t-1", T0.plusSeconds(1));
      r3.leave("done", T0.plusSeconds(1)); // in the new file too

      r1.look(RUNNING, List.of(), T0.plusSeconds(2)); // its old file still has r2's t-1 and r3 live

      assertThat(heldNow(host, T0.plusSeconds(2))).isEmpty();
      try (SharedReservations reader = ledger(host)) {
        assertThat(reader.runs(false, T0.plusSeconds(2))).extracting(RunEntry::name)
            .containsExactlyInAnyOrder("r1", "r2");
      }
    }
  }

  @Test
  void aRunThatOpensALedgerMadeAnewWaitsBeforeClaimingWhileTheOtherRunsPublishWhatTheyHold() throws Exception {
    Path host = dir.resolve("host");
    try (SharedReservations r1 = joined(host, "r1", 1000, 41, T0)) {
      assertThat(r1.take(gpu("t-1", 20), T0)).isEmpty();
      removeTheLedger(host);

      try (SharedReservations r2 = joined(host, "r2", 2000, 42, T0.plusSeconds(1))) {
        assertThat(r2.take(gpu("u-1", 10), T0.plusSeconds(1))).as("r1 has not published its 20 GiB yet")
            .hasValueSatisfying(why -> assertThat(why)
                .isEqualTo("the host ledger was made anew after its file was removed: starts wait "
                    + LedgerFile.REMADE_GRACE.toSeconds() + " s more for the runs on this host to publish there"
                    + " what they hold [host ledger made anew]"));

        assertThat(r2.take(gpu("u-1", 10), T0.plusSeconds(2))).as("still in the grace")
            .hasValueSatisfying(why -> assertThat(why).contains("wait " + (LedgerFile.REMADE_GRACE.toSeconds() - 1) + " s more"));

        Instant later = T0.plusSeconds(3);
        r1.look(RUNNING, List.of(), later); // carries what the removed file had: nothing left to wait for
        assertThat(r2.take(gpu("u-1", 10), later)).hasValueSatisfying(why -> assertThat(why).contains("held by run r1"));
        assertThat(r2.take(gpu("u-1", 4), later)).isEmpty();
      }
    }
  }

  @Test
  void aLookInALedgerMadeAnewSaysThatItCannotTellWhatOtherRunsHoldUntilItCan() throws Exception {
    Path host = killedRunsLedgerRemoved();

    try (SharedReservations r2 = joined(host, "r2", 2000, 42, T0.plusSeconds(1))) {
      assertThat(r2.untold()).as("before any look").isEmpty();
      Instant later = T0.plusSeconds(1).plus(LedgerFile.REMADE_GRACE);
      r2.look(RUNNING, List.of(), later);
      assertThat(r2.untold()).hasValueSatisfying(why -> assertThat(why).contains("/runs/r1"));

      taskDirs.remove("/runs/r1");
      r2.look(RUNNING, List.of(), later.plusSeconds(1));
      assertThat(r2.untold()).isEmpty();
    }
  }

  @Test
  void anAttemptWhoseProcessRunsAlreadyIsAdoptedInALedgerMadeAnew() throws Exception {
    Path host = dir.resolve("host");
    try (SharedReservations r1 = joined(host, "r1", 1000, 41, T0)) {
      assertThat(r1.take(gpu("t-1", 10), T0)).isEmpty();
      removeTheLedger(host);

      try (SharedReservations resumed = joined(host, "r2", 2000, 42, T0.plusSeconds(1))) {
        resumed.adopt(List.of(gpu("u-1", 10)), T0.plusSeconds(1)); // refusing it would only hide it

        assertThat(resumed.take(gpu("u-2", 4), T0.plusSeconds(1))).hasValueSatisfying(why -> assertThat(why)
            .contains("made anew"));
        assertThat(heldNow(host, T0.plusSeconds(1))).containsExactly("r2 u-1 cuda:0");
      }
    }
  }

  @Test
  void aLedgerMadeAnewWhenNoRunCouldCarryAKilledRunsRowsWaitsWhileThatRunsTasksLive() throws Exception {
    Path host = killedRunsLedgerRemoved();

    try (SharedReservations r2 = joined(host, "r2", 2000, 42, T0.plusSeconds(1))) {
      Instant later = T0.plusSeconds(1).plus(LedgerFile.REMADE_GRACE);
      assertThat(r2.take(gpu("u-1", 10), later)).hasValueSatisfying(why -> assertThat(why)
          .contains("tasks of runs it does not know run on").contains("/runs/r1"));

      taskDirs.remove("/runs/r1");
      assertThat(r2.take(gpu("u-1", 10), later.plusSeconds(1))).isEmpty();
    }
  }

  @Test
  void aRunThatCarriesALedgerThatWasItselfMadeAnewAndStillWaitsKeepsTheNewOneWaiting() throws Exception {
    Path host = killedRunsLedgerRemoved();

    try (SharedReservations r2 = joined(host, "r2", 2000, 42, T0.plusSeconds(1))) {
      removeTheLedger(host); // again: r2 carries a file that never had r1
      r2.look(RUNNING, List.of(), T0.plusSeconds(2));

      Instant later = T0.plusSeconds(2).plus(LedgerFile.REMADE_GRACE);
      assertThat(r2.take(gpu("u-1", 10), later)).hasValueSatisfying(why -> assertThat(why).contains("/runs/r1"));
    }
  }

  @Test
  void aLedgerRemovedAgainAndAgainWaitsForRunsOnlyFromWhenTheFirstWasMadeAnew() throws Exception {
    Path host = dir.resolve("host");
    joined(host, "r1", 1000, 41, T0).close(); // the host's first ledger
    removeTheLedger(host);
    try (SharedReservations r2 = joined(host, "r2", 2000, 42, T0)) {
      for (int s = 1; s < LedgerFile.REMADE_GRACE.toSeconds(); s += 3) {
        removeTheLedger(host);
        r2.look(RUNNING, List.of(), T0.plusSeconds(s));
      }

      assertThat(r2.take(gpu("u-1", 10), T0.plus(LedgerFile.REMADE_GRACE))).isEmpty();
    }
  }

  @Test
  void theFirstLedgerOfAHostTakesClaimsAtOnce() {
    Path host = dir.resolve("host");
    try (SharedReservations r1 = joined(host, "r1", 1000, 41, T0)) {
      assertThat(r1.take(gpu("t-1", 20), T0)).isEmpty();
    }
  }

  /** The waits in the ledger file: "run task". */
  private static List<String> waitsIn(Path host) throws Exception {
    List<String> waits = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + host.resolve(HostLedgers.FILE));
        Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT run, task FROM waits ORDER BY run, task")) {
      while (rs.next()) {
        waits.add(rs.getString(1) + " " + rs.getString(2));
      }
    }
    return waits;
  }

  /**
   * Run r1 takes 20 GiB for a task in {@code /runs/r1}, its Berth is killed (its ledger closed with
   * it, its task going on), and the ledger's files are removed: nobody is left to carry its hold
   * into the new file.
   */
  private Path killedRunsLedgerRemoved() throws Exception {
    Path host = dir.resolve("host");
    SharedReservations r1 = joined(host, "r1", 1000, 41, T0);
    assertThat(r1.take(gpu("t-1", 20), T0)).isEmpty();
    taskDirs.add("/runs/r1");
    berths.remove(41L);
    r1.close();
    removeTheLedger(host);
    return host;
  }
}

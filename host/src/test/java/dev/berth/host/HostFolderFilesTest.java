package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Progress;
import dev.berth.spi.SharedReservations.Reservation;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.spi.SharedReservations.RunEntry;
import dev.berth.spi.SharedReservations.Share;
import dev.berth.spi.SharedReservationsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host folder's files: each user's rows in a file of their own, what counts of them, and what a
 * run does when its own is removed under it. Users are told apart by the file's owner, here as
 * {@link FileOwners#NAMED} (or a stand-in) says; {@link TwoUsersTest} does it with real accounts.
 */
class HostFolderFilesTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final long GIB = 1L << 30;
  private static final long ALICE = 1000;
  private static final long BOB = 1001;

  @TempDir Path dir;
  private final FileOwners owners = FileOwners.NAMED;
  private final List<String> warnings = new ArrayList<>();
  private final Set<Long> berths = new TreeSet<>(); // live Berth pids

  private SharedReservations ledger(long uid, FileOwners who) {
    return new SharedLedger(new FileStore(dir, uid, who, warnings::add), "h", (p, start) -> berths.contains(p),
        TaskProcesses.NONE, HostLimits.NONE);
  }

  private SharedReservations joined(long uid, String name, long pid) {
    SharedReservations l = ledger(uid, owners);
    berths.add(pid);
    l.join(new Run(name, name, "/runs/" + name, uid, uid == ALICE ? "alice" : "bob", pid, 1), T0);
    return l;
  }

  private static Claim gpu(String task, long gib) {
    return new Claim(task, 0, 0, 8000, List.of(new Share("sim:24GiB#0", "cuda:0", gib * GIB, 24 * GIB)));
  }

  private static Progress progress() {
    return new Progress("running", 0, 0, 0, 2);
  }

  @Test
  void eachUsersRowsAreInAFileOfTheirOwnThatOthersMayReadButNotWrite() throws Exception {
    joined(ALICE, "a", 41).take(gpu("t1", 10), T0);
    joined(BOB, "b", 42).take(gpu("u1", 4), T0);

    assertThat(Files.readString(FileStore.fileOf(dir, ALICE))).contains("run\ta\t").contains("hold\ta\tt1\t")
        .doesNotContain("\tb\t");
    assertThat(Files.readString(FileStore.fileOf(dir, BOB))).contains("hold\tb\tu1\t").doesNotContain("\ta\t");
    assertThat(Files.getPosixFilePermissions(FileStore.fileOf(dir, ALICE)))
        .isEqualTo(PosixFilePermissions.fromString("rw-r--r--"));
  }

  @Test
  void aFileNamedForOneUserButOwnedByAnotherIsIgnoredWithAWarningAndFreesNothing() throws Exception {
    SharedReservations a = joined(ALICE, "a", 41);
    a.take(gpu("t1", 10), T0);
    String alices = Files.readString(FileStore.fileOf(dir, ALICE));
    // bob's file, named for a user who has none yet, claiming 14 GiB that nobody holds
    Files.writeString(FileStore.fileOf(dir, 1002), alices.replace("\ta\t", "\tforged\t").replace(
        Long.toString(10 * GIB), Long.toString(14 * GIB)));
    FileOwners bobMadeIt = file -> file.getFileName().toString().contains("1002") ? new FileOwners.Owner(BOB, "bob")
        : owners.of(file);

    SharedReservations reader = ledger(BOB, bobMadeIt);
    List<RunEntry> runs = reader.runs(false, T0);

    assertThat(runs).extracting(RunEntry::name).containsExactly("a");
    assertThat(warnings).singleElement().asString().contains("user-1002.ledger is ignored")
        .contains("named for uid 1002 but owned by uid 1001");
  }

  @Test
  void aRunWhoseIdAnotherUsersFileCopiesKeepsItsHoldsAndBothAreCounted() throws Exception {
    SharedReservations a = joined(ALICE, "a", 41);
    a.take(gpu("t1", 10), T0);
    SharedReservations b = joined(BOB, "b", 42);
    // bob writes into his own file a run of alice's id, ended, with nothing held
    String bobs = Files.readString(FileStore.fileOf(dir, BOB));
    Files.writeString(FileStore.fileOf(dir, BOB), bobs + "run\ta\th\ta\t/runs/a\t41\t1\tdone\t0\t0\t0\t0\t0\t0\t0\t1\n");

    assertThat(b.take(gpu("u1", 15), T0)).as("alice's 10 GiB are still held").isPresent();
    assertThat(joined(ALICE, "c", 43).look(progress(), List.of(), T0)).extracting(Reservation::runName,
        Reservation::user, Reservation::bytes).containsExactly(tuple("a", "alice", 10 * GIB));
  }

  @Test
  void anotherUsersDeadRunIsReclaimedInWhatTheLookerSeesWhileItsOwnerAloneWritesItsFile() throws Exception {
    joined(ALICE, "a", 41).take(gpu("t1", 20), T0);
    String alices = Files.readString(FileStore.fileOf(dir, ALICE));
    berths.remove(41L); // killed

    SharedReservations b = joined(BOB, "b", 42);
    assertThat(b.look(progress(), List.of(), T0)).isEmpty();
    assertThat(b.take(gpu("u1", 20), T0)).isEmpty();
    assertThat(b.runs(true, T0)).filteredOn(r -> r.name().equals("a")).extracting(r -> r.progress().state())
        .containsExactly("lost");

    assertThat(Files.readString(FileStore.fileOf(dir, ALICE))).isEqualTo(alices);
    SharedReservations alicesNext = joined(ALICE, "c", 43);
    assertThat(alicesNext.runs(true, T0)).filteredOn(r -> r.name().equals("a")).extracting(r -> r.progress().state())
        .as("alice's next run reclaims it in her file").containsExactly("lost");
    assertThat(Files.readString(FileStore.fileOf(dir, ALICE))).doesNotContain("hold\ta\t");
  }

  @Test
  void aUsersFileRemovedUnderItsRunsIsReadOnUnderItsSecondNameByARunThatNeverSawIt() throws Exception {
    SharedReservations a = joined(ALICE, "a", 41);
    a.take(gpu("t1", 10), T0);
    SharedReservations killed = joined(ALICE, "killed", 44);
    killed.take(gpu("t2", 4), T0);
    Files.delete(FileStore.fileOf(dir, ALICE));

    SharedReservations b = joined(BOB, "b", 42);

    assertThat(b.look(progress(), List.of(), T0)).extracting(Reservation::runName, Reservation::bytes)
        .containsExactlyInAnyOrder(tuple("a", 10 * GIB), tuple("killed", 4 * GIB));
    assertThat(b.take(gpu("u1", 12), T0)).isPresent();
    a.look(progress(), List.of(), T0.plusSeconds(1));
    assertThat(Files.readString(FileStore.fileOf(dir, ALICE))).as("under its first name again")
        .isEqualTo(Files.readString(FileStore.secondOf(dir, ALICE)));
  }

  @Test
  void aUsersFileRemovedUnderBothNamesIsWrittenAgainWithWhatItsRunsHoldAtTheirNextCall() throws Exception {
    SharedReservations a = joined(ALICE, "a", 41);
    a.take(gpu("t1", 10), T0);
    SharedReservations a2 = joined(ALICE, "a2", 44);
    a2.take(gpu("t2", 4), T0);
    Files.delete(FileStore.fileOf(dir, ALICE));
    Files.delete(FileStore.secondOf(dir, ALICE));

    a.look(progress(), List.of(), T0.plusSeconds(1));
    a2.releaseAll(List.of("none"), T0.plusSeconds(1));

    SharedReservations b = joined(BOB, "b", 42);
    assertThat(b.look(progress(), List.of(), T0.plusSeconds(1))).extracting(Reservation::runName, Reservation::bytes)
        .containsExactlyInAnyOrder(tuple("a", 10 * GIB), tuple("a2", 4 * GIB));
    assertThat(b.take(gpu("u1", 12), T0.plusSeconds(1))).isPresent();
  }

  @Test
  void anotherUsersFileThatCannotBeReadIsIgnoredWithAWarningAndOnesOwnStopsTheRunWithOneLine() throws Exception {
    Files.writeString(FileStore.fileOf(dir, BOB), "garbage\n");
    SharedReservations a = joined(ALICE, "a", 41);
    assertThat(a.take(gpu("t1", 10), T0)).isEmpty();
    assertThat(warnings).singleElement().asString().contains("user-1001.ledger is ignored")
        .contains("not a Berth host ledger file");

    assertThatThrownBy(() -> joined(BOB, "b", 42)).isInstanceOf(SharedReservationsException.class)
        .hasMessageContaining("user-1001.ledger: this user's host ledger file cannot be used")
        .hasMessageNotContaining("\n");
  }

  @Test
  void anEarlierReleasesLedgerWrittenInTheLastDayIsNamedInAWarningAndNotRead() throws Exception {
    Path old = Files.writeString(dir.resolve(HostLedgers.OLD_FILE), "SQLite format 3");
    HostLedgers.open(dir, warnings::add).close();
    Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(SharedLedger.ENDED_KEPT).minusSeconds(60)));
    HostLedgers.open(dir, warnings::add).close();

    assertThat(warnings).singleElement().asString().contains(old + " is the host ledger of an earlier Berth release");
  }

  @Test
  void aRunIsNamedForItsUserAsTheSystemNamesThemWhateverThePropertiesSay() throws Exception {
    String before = System.getProperty("user.name");
    System.setProperty("user.name", "someone-else");
    try {
      Run self = HostLedgers.self("r", "/runs/r");
      assertThat(self.user()).isEqualTo(Files.getOwner(Path.of("/proc/self")).getName());
    } finally {
      System.setProperty("user.name", before);
    }
  }

  @Test
  void aFileLeftUnfinishedByAWriterKilledInTheMiddleOfItIsReadFromItsSecondCopy() throws Exception {
    SharedReservations a = joined(ALICE, "a", 41);
    a.take(gpu("t1", 10), T0);
    String whole = Files.readString(FileStore.fileOf(dir, ALICE));
    Files.writeString(FileStore.fileOf(dir, ALICE), whole.substring(0, whole.length() / 2));

    SharedReservations b = joined(BOB, "b", 42);

    assertThat(b.look(progress(), List.of(), T0)).extracting(Reservation::runName, Reservation::bytes)
        .containsExactly(tuple("a", 10 * GIB));
    assertThat(warnings).isEmpty();
    a.look(progress(), List.of(), T0.plusSeconds(1));
    assertThat(Files.readString(FileStore.fileOf(dir, ALICE))).as("whole again").endsWith("\nend\n");
  }
}

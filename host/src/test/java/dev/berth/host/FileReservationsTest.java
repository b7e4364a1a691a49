package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.spi.SharedReservations.Share;
import dev.berth.testkit.SharedReservationsContractTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules over the users' files of a host folder, each user's process with its own store, as on a host. */
class FileReservationsTest extends SharedReservationsContractTest {

  @TempDir Path dir;
  private final ProcStat proc = new ProcStat();
  private final FileOwners owners = FileOwners.NAMED;

  @Override
  protected SharedReservations ledger() {
    return new SharedLedger(new FileStore(dir, null, owners, line -> {}), "test-host", proc, TaskProcesses.NONE,
        HostLimits.NONE);
  }

  @Override
  protected Run live(String name, long uid, String user) {
    long pid = ProcessHandle.current().pid();
    return new Run(UUID.randomUUID().toString(), name, "/runs/" + name, uid, user, pid, proc.selfStart());
  }

  @Override
  protected Run dead(String name, long uid, String user) {
    // a pid above any pid_max Linux allows is never alive
    return new Run(UUID.randomUUID().toString(), name, "/runs/" + name, uid, user, 5_000_000, 1);
  }

  @Test
  void aTransactionThatFailsWritesNothing() throws Exception {
    try (SharedReservations ledger = ledger()) {
      ledger.join(live("a", 1000, "alice"), T0);
    }
    Path file = FileStore.fileOf(dir, 1000);
    String before = Files.readString(file);
    FileStore store = new FileStore(dir, 1000L, owners, line -> {});

    Assertions.assertThatThrownBy(() -> store.transaction(t -> {
      t.forgetBefore(T0.plusSeconds(1_000_000));
      t.addUsage("alice", T0, 5);
      throw new IllegalStateException("a rule failed");
    })).isInstanceOf(IllegalStateException.class);

    assertThat(Files.readString(file)).isEqualTo(before);
  }

  @Test
  void theTasksThatEndInOneMinuteAddTheirUsageToOneRowOfTheirUser() throws Exception {
    try (SharedReservations ledger = ledger()) {
      ledger.join(live("many", 1000, "alice"), T0);
      for (int i = 0; i < 50; i++) {
        Claim claim = new Claim("t" + i, 0, 1000, 64_000, List.of(new Share(SharedReservations.HOST, "host", 1L << 30, 1L << 40)));
        assertThat(ledger.take(claim, T0.plusSeconds(i))).isEmpty();
        ledger.release("t" + i, T0.plusSeconds(i + 1));
      }
    }

    List<String> usage = Files.readAllLines(FileStore.fileOf(dir, 1000)).stream().filter(l -> l.startsWith("usage\t"))
        .toList();
    assertThat(usage).hasSize(1);
    assertThat(Double.parseDouble(usage.get(0).split("\t")[2])).as("50 tasks of one GiB and one core, a second each")
        .isCloseTo(100.0, within(1e-9));
  }
}

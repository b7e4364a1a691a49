package dev.berth.host;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.testkit.SharedReservationsContractTest;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;

class SqliteReservationsTest extends SharedReservationsContractTest {

  @TempDir Path dir;
  private final ProcStat proc = new ProcStat();

  @Override
  protected SharedReservations ledger() {
    return new SharedLedger(SqliteStore.open(dir.resolve("ledger.db")), "test-host", proc, HostLimits.NONE);
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
}

package dev.berth.host;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.testkit.SharedReservationsContractTest;
import java.util.UUID;

class MemoryReservationsTest extends SharedReservationsContractTest {

  private final MemoryStore store = new MemoryStore();
  private final ProcStat proc = new ProcStat();

  @Override
  protected SharedReservations ledger() {
    return new SharedLedger(store, "test-host", proc, TaskProcesses.NONE, HostLimits.NONE);
  }

  @Override
  protected Run live(String name, long uid, String user) {
    long pid = ProcessHandle.current().pid();
    return new Run(UUID.randomUUID().toString(), name, "/runs/" + name, uid, user, pid, proc.selfStart());
  }

  @Override
  protected Run dead(String name, long uid, String user) {
    long pid = ProcessHandle.current().pid();
    return new Run(UUID.randomUUID().toString(), name, "/runs/" + name, uid, user, pid, proc.selfStart() + 1);
  }
}

package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.host.LedgerStore.Tables;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Demand;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.spi.SharedReservations.Share;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** A scheduling pass's release and claims read each kind of row once, and the usage only when it may matter. */
class OneReadPerPassTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final long GIB = 1L << 30;

  private final CountingStore store = new CountingStore(new MemoryStore());
  private final ProcStat proc = new ProcStat();

  /** Counts the reads of each transaction's tables, by method name. */
  private static final class CountingStore implements LedgerStore {
    private final LedgerStore store;
    final Map<String, Integer> reads = new TreeMap<>();

    CountingStore(LedgerStore store) {
      this.store = store;
    }

    @Override
    public <T> T transaction(Function<Tables, T> work) {
      return store.transaction(t -> work.apply((Tables) Proxy.newProxyInstance(Tables.class.getClassLoader(),
          new Class<?>[] {Tables.class}, (proxy, method, args) -> {
            reads.merge(method.getName(), 1, Integer::sum);
            try {
              return method.invoke(t, args);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            }
          })));
    }

    @Override
    public String where() {
      return store.where();
    }

    @Override
    public void close() {
      store.close();
    }
  }

  private SharedReservations joined(String name, long uid, String user) {
    SharedReservations l = new SharedLedger(store, "h", proc, TaskProcesses.NONE, HostLimits.NONE);
    l.join(new Run(UUID.randomUUID().toString(), name, "/" + name, uid, user, ProcessHandle.current().pid(),
        proc.selfStart()), T0);
    return l;
  }

  private static Claim gpu(String task, long gib) {
    return new Claim(task, 0, 1000, 8000, List.of(new Share("sim:24GiB#0", "cuda:0", gib * GIB, 24 * GIB)));
  }

  @Test
  void aPassThatReleasesAndClaimsReadsTheHoldsRunsAndWaitsOnceAndNoUsageWhenNothingElseWouldFit() {
    SharedReservations a = joined("a", 1000, "alice");
    SharedReservations b = joined("b", 1001, "bob");
    b.waiting(List.of(new Demand("u1", 0, 1000, 0, 30 * GIB, 1,
        List.of(new Share("sim:24GiB#0", "cuda:0", 0, 24 * GIB)))), T0); // more than the device has
    a.take(gpu("t1", 4), T0);
    store.reads.clear();

    assertThat(a.releaseAndTakeAll(List.of("t1"), List.of(gpu("t2", 4), gpu("t3", 4)), T0.plusSeconds(1)))
        .containsExactly(Optional.empty(), Optional.empty());

    assertThat(store.reads).containsEntry("holds", 1).containsEntry("liveRuns", 1).containsEntry("waits", 1)
        .doesNotContainKey("usageSince");
  }

  @Test
  void aPassReadsTheUsageOnceForAllItsClaimsWhenATaskOfAnotherRunWouldFit() {
    SharedReservations a = joined("a", 1000, "alice");
    SharedReservations b = joined("b", 1001, "bob");
    b.waiting(List.of(new Demand("u1", 0, 1000, 0, 4 * GIB, 1,
        List.of(new Share("sim:24GiB#0", "cuda:0", 0, 24 * GIB)))), T0);
    store.reads.clear();

    a.releaseAndTakeAll(List.of(), List.of(gpu("t1", 4), gpu("t2", 4)), T0.plusSeconds(1));

    assertThat(store.reads).containsEntry("holds", 1).containsEntry("usageSince", 1);
  }
}

package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.spi.SharedReservations.Share;
import dev.berth.testkit.SharedReservationsContractTest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteReservationsTest extends SharedReservationsContractTest {

  @TempDir Path dir;
  private final ProcStat proc = new ProcStat();

  @Override
  protected SharedReservations ledger() {
    return new SharedLedger(SqliteStore.open(dir.resolve("ledger.db")), "test-host", proc, TaskProcesses.NONE, HostLimits.NONE);
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
  void aTransactionThatFailsLeavesTheNextOnesTheirPreparedStatementsInWorkingOrder() {
    try (SqliteStore store = SqliteStore.open(dir.resolve("ledger.db"))) {
      store.transaction(t -> {
        t.runs();
        return null;
      });
      Assertions.assertThatThrownBy(() -> store.transaction(t -> {
        t.holds();
        throw new IllegalStateException("a rule failed");
      })).isInstanceOf(IllegalStateException.class);
      store.transaction(t -> {
        t.forgetBefore(T0);
        return null;
      });

      int rows = store.transaction(t -> t.runs().size() + t.holds().size());
      assertThat(rows).isZero();
    }
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

    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("ledger.db"));
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*), sum(amount) FROM usage WHERE user = 'alice'")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(1);
      assertThat(rs.getDouble(2)).as("50 tasks of one GiB and one core, a second each").isCloseTo(100.0, within(1e-9));
    }
  }
}

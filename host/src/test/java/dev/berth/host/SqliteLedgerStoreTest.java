package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteLedgerStoreTest extends LedgerStoreContractTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;

  @Override
  protected LedgerStore emptyStore() {
    return SqliteStore.open(dir.resolve("ledger.db"));
  }

  @Test
  void aLedgerMadeAgainWhereAnEarlierOneWasIsRemadeFromTheFirstInstantAnyoneAsks() throws Exception {
    Path file = dir.resolve("host").resolve(HostLedgers.FILE);
    Files.createDirectories(file.getParent());
    SqliteStore.createIfMissing(file);
    try (LedgerStore first = SqliteStore.open(file)) {
      assertThat(remade(first, T0)).as("the first ledger of the host").isEmpty();
    }
    for (String suffix : List.of("", "-wal", "-shm")) {
      Files.deleteIfExists(file.resolveSibling(HostLedgers.FILE + suffix));
    }

    SqliteStore.createIfMissing(file);

    try (LedgerStore again = SqliteStore.open(file)) {
      assertThat(remade(again, T0.plusSeconds(5))).contains(T0.plusSeconds(5));
      assertThat(remade(again, T0.plusSeconds(9))).as("stamped once").contains(T0.plusSeconds(5));
      again.transaction(t -> {
        t.remadeOver();
        return null;
      });
      assertThat(remade(again, T0.plusSeconds(20))).as("once its runs are all in it again").isEmpty();
    }
  }

  private static Optional<Instant> remade(LedgerStore store, Instant now) {
    return store.transaction(t -> t.remade(now));
  }
}

package dev.berth.host;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteLedgerStoreTest extends LedgerStoreContractTest {

  @TempDir Path dir;

  @Override
  protected LedgerStore emptyStore() {
    return SqliteStore.open(dir.resolve("ledger.db"));
  }
}

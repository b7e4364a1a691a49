package dev.berth.host;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class FileLedgerStoreTest extends LedgerStoreContractTest {

  @TempDir Path dir;
  private final FileOwners owners = FileOwners.NAMED;

  @Override
  protected LedgerStore storeOf(long uid, String user) {
    return new FileStore(dir, uid, owners, line -> {});
  }
}

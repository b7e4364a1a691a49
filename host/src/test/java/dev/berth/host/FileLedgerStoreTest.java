package dev.berth.host;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class FileLedgerStoreTest extends LedgerStoreContractTest {

  @TempDir Path dir;
  private final NamedOwners owners = new NamedOwners();

  @Override
  protected LedgerStore storeOf(long uid, String user) {
    owners.name(uid, user);
    return new FileStore(dir, uid, owners, line -> {});
  }
}

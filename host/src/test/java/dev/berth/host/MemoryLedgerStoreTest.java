package dev.berth.host;

class MemoryLedgerStoreTest extends LedgerStoreContractTest {

  private final MemoryStore store = new MemoryStore();

  @Override
  protected LedgerStore storeOf(long uid, String user) {
    return store;
  }
}

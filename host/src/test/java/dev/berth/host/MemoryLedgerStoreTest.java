package dev.berth.host;

class MemoryLedgerStoreTest extends LedgerStoreContractTest {

  @Override
  protected LedgerStore emptyStore() {
    return new MemoryStore();
  }
}

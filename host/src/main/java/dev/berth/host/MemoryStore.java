package dev.berth.host;

import java.util.function.Function;

/**
 * The ledger's rows in memory: for a run that wants to be alone on its host ({@code --host-ledger
 * off}), and for tests, where several ledgers may share one store as runs share the host's files.
 */
final class MemoryStore implements LedgerStore {

  private final RowSet rows = new RowSet();

  @Override
  public synchronized <T> T transaction(Function<Tables, T> work) {
    T result = work.apply(rows.tables());
    rows.reclaimed(); // the rows are changed in place: nothing to make again or to write
    rows.callers();
    return result;
  }

  @Override
  public String where() {
    return "this run only (host ledger off)";
  }

  @Override
  public void close() {}
}

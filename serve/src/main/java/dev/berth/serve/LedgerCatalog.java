package dev.berth.serve;

import dev.berth.host.HostLedgers;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.RunEntry;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/**
 * Every run in the host ledger, as {@code berth ps --all} lists them: what {@code berth serve} shows.
 * The ledger stays open while the catalog is: a reader that opened and closed it each time would
 * create and remove the database's write-ahead log at every read, which the runs stream's folder
 * watch would take for a change, read again, and so on.
 */
public final class LedgerCatalog implements RunCatalog {

  private final Path ledgerDir;
  private final InstantSource clock;
  private SharedReservations ledger;

  /** Reads the ledger in {@code ledgerDir}, with "the last day" measured on {@code clock}. */
  public LedgerCatalog(Path ledgerDir, InstantSource clock) {
    this.ledgerDir = ledgerDir;
    this.clock = clock;
  }

  @Override
  public List<RunEntry> runs() {
    try {
      return open().map(l -> l.runs(true, clock.instant())).orElse(List.of());
    } catch (RuntimeException e) {
      close(); // read afresh next time: the ledger may have been caught while its first run made it
      throw e;
    }
  }

  @Override
  public List<Path> watched() {
    return List.of(ledgerDir);
  }

  /** The ledger, opened at the first read that finds one (none until a run ever joined it). */
  private synchronized Optional<SharedReservations> open() {
    if (ledger == null) {
      ledger = HostLedgers.find(ledgerDir).orElse(null);
    }
    return Optional.ofNullable(ledger);
  }

  @Override
  public synchronized void close() {
    if (ledger != null) {
      ledger.close();
      ledger = null;
    }
  }
}

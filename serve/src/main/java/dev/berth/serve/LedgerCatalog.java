package dev.berth.serve;

import dev.berth.session.HostRuns;
import dev.berth.spi.SharedReservations.RunEntry;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;

/** Every run in the host ledger, as {@code berth ps --all} lists them: what {@code berth serve} shows. */
public final class LedgerCatalog implements RunCatalog {

  private final Path ledgerDir;
  private final InstantSource clock;

  /** Reads the ledger in {@code ledgerDir}, with "the last day" measured on {@code clock}. */
  public LedgerCatalog(Path ledgerDir, InstantSource clock) {
    this.ledgerDir = ledgerDir;
    this.clock = clock;
  }

  @Override
  public List<RunEntry> runs() {
    return HostRuns.read(ledgerDir, true, clock.instant());
  }

  @Override
  public List<Path> watched() {
    return List.of(ledgerDir);
  }
}

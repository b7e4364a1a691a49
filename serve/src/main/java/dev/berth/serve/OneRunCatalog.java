package dev.berth.serve;

import dev.berth.spi.SharedReservations.RunEntry;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Only the run of one Berth process among another catalog's runs: what {@code berth run --serve}
 * shows, the run that process is running.
 */
public final class OneRunCatalog implements RunCatalog {

  private final RunCatalog all;
  private final long pid;

  /** The run of process {@code pid} in {@code all}. */
  public OneRunCatalog(RunCatalog all, long pid) {
    this.all = all;
    this.pid = pid;
  }

  @Override
  public List<RunEntry> runs() {
    return all.runs().stream().filter(r -> r.pid() == pid && r.endedAt().isEmpty()).toList();
  }

  @Override
  public Optional<RunEntry> only() {
    return runs().stream().findFirst();
  }

  @Override
  public void close() {
    all.close();
  }

  @Override
  public List<Path> watched() {
    return all.watched();
  }
}

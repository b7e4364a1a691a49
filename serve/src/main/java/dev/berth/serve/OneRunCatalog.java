package dev.berth.serve;

import dev.berth.spi.SharedReservations.RunEntry;
import java.util.List;

/** Only the runs of another catalog whose id is this one: what {@code berth run --serve} shows. */
public final class OneRunCatalog implements RunCatalog {

  private final RunCatalog all;
  private final String run;

  /** The run {@code run} of {@code all}. */
  public OneRunCatalog(RunCatalog all, String run) {
    this.all = all;
    this.run = run;
  }

  @Override
  public List<RunEntry> runs() {
    return all.runs().stream().filter(r -> r.run().equals(run)).toList();
  }
}

package dev.berth.serve;

import dev.berth.spi.SharedReservations.RunEntry;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The runs a dashboard shows, by the host ledger's run id: the client names a run by that id and
 * the workdir comes from here, never from the client.
 */
public interface RunCatalog extends AutoCloseable {

  /** The runs to list, live ones and those that ended lately. */
  List<RunEntry> runs();

  /**
   * The folders whose changes may change {@link #runs()} (the host ledger's): the runs list's event
   * stream reads the runs again when one changes. None by default: a fixed list.
   */
  default List<Path> watched() {
    return List.of();
  }

  /** Lets go of what the catalog holds open; the server closes its catalog as it stops. */
  @Override
  default void close() {}

  /**
   * The one run this catalog is about, once it is listed, for a dashboard of a single run ({@code berth
   * run --serve}), whose first page is then that run's; empty for a catalog of a host's runs.
   */
  default Optional<RunEntry> only() {
    return Optional.empty();
  }

  /** The run with this id, if it is one of {@link #runs()}. */
  default Optional<RunEntry> find(String id) {
    return runs().stream().filter(r -> r.run().equals(id)).findFirst();
  }
}

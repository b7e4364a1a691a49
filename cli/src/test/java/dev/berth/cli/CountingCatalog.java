package dev.berth.cli;

import dev.berth.serve.RunCatalog;
import dev.berth.spi.SharedReservations.RunEntry;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A dashboard's runs, counting the API requests that name a run, so that a test can act once a browser
 * has made its requests rather than after some time: a run page asks for the run's event stream and
 * for its memory samples' stream.
 */
final class CountingCatalog implements RunCatalog {

  private final RunCatalog runs;
  private int found;
  private int actAt = Integer.MAX_VALUE;
  private Runnable action = () -> { };

  CountingCatalog(RunCatalog runs) {
    this.runs = runs;
  }

  @Override
  public List<RunEntry> runs() {
    return runs.runs();
  }

  @Override
  public List<Path> watched() {
    return runs.watched();
  }

  @Override
  public void close() {
    runs.close();
  }

  @Override
  public Optional<RunEntry> find(String id) {
    Optional<RunEntry> run = runs.find(id);
    Runnable now = null;
    synchronized (this) {
      if (++found == actAt) {
        now = action;
      }
    }
    if (now != null) {
      now.run();
    }
    return run;
  }

  /** Runs {@code then}, on the server's thread, once {@code more} further requests have named a run. */
  synchronized void after(int more, Runnable then) {
    actAt = found + more;
    action = then;
  }
}

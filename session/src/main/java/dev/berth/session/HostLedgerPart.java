package dev.berth.session;

import dev.berth.core.model.RunSpec;
import dev.berth.host.HostLedgers;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservationsException;
import java.time.InstantSource;

/** The run's place in the host ledger: joined as the session opens, left as it closes. */
final class HostLedgerPart {

  private HostLedgerPart() {}

  /**
   * Joins the host ledger the options choose: the host folder's, a test's, or none (for a run that
   * wants to be alone, for a run whose tasks are Slurm jobs, which the cluster places, and for the
   * Berth inside a Slurm allocation: Slurm has already split the node, so the allocation is the run's
   * whole machine, and waiting behind runs outside it, in other jobs or none, would hold back for
   * nothing what Slurm gave this job alone).
   *
   * @return the joined ledger, or null for none
   * @throws SessionException when the ledger cannot be opened or its limits file is not valid
   */
  static SharedReservations join(RunSpec spec, RunLayout layout, SessionOptions o, InstantSource clock)
      throws SessionException {
    if (!o.hostLedger() || spec.config().onCluster() || o.insideAllocation()) {
      return null;
    }
    SharedReservations ledger;
    try {
      ledger = o.sharedReservations().orElseGet(() -> HostLedgers.open(HostLedgers.directory(o.env()), o::warn));
    } catch (SharedReservationsException | IllegalArgumentException e) {
      throw new SessionException(e.getMessage() + " (--host-ledger off runs without it)");
    }
    try {
      ledger.join(HostLedgers.self(spec.name(), layout.runDir().toAbsolutePath().toString()), clock.instant());
      return ledger;
    } catch (SharedReservationsException e) {
      ledger.close();
      throw new SessionException(e.getMessage());
    }
  }

  /** Leaves the ledger (releasing what the run still holds, unless the engine left already) and closes it. */
  static void leave(SharedReservations ledger, InstantSource clock) {
    try {
      ledger.leave("stopped", clock.instant());
    } catch (SharedReservationsException e) {
      // the run's process ends soon, and whoever looks next reclaims what it held
    } finally {
      ledger.close();
    }
  }
}

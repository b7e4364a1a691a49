package dev.berth.simulation;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservationsException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A run's host ledger whose file another process may hold locked for a few seconds: while {@link
 * Lock#busy} is set, every call fails as SQLite's busy timeout makes the real store's fail.
 */
final class BusyLedger implements SharedReservations {

  /** Whether the file is locked by someone else, shared by every run's ledger on the host. */
  static final class Lock {
    boolean busy;
  }

  private final SharedReservations ledger;
  private final Lock lock;

  BusyLedger(SharedReservations ledger, Lock lock) {
    this.ledger = ledger;
    this.lock = lock;
  }

  private void check() {
    if (lock.busy) {
      throw new SharedReservationsException(ledger.where() + ": database is locked");
    }
  }

  @Override
  public void join(Run run, Instant now) {
    check();
    ledger.join(run, now);
  }

  @Override
  public List<Reservation> look(Progress progress, List<Measured> measured, Instant now) {
    check();
    return ledger.look(progress, measured, now);
  }

  @Override
  public Optional<String> untold() {
    return ledger.untold(); // what the last look found: no transaction, never busy
  }

  @Override
  public Optional<String> take(Claim claim, Instant now) {
    check();
    return ledger.take(claim, now);
  }

  @Override
  public void adopt(List<Claim> claims, Instant now) {
    check();
    ledger.adopt(claims, now);
  }

  @Override
  public void release(String task, Instant now) {
    check();
    ledger.release(task, now);
  }

  @Override
  public void releaseAll(List<String> tasks, Instant now) {
    check();
    ledger.releaseAll(tasks, now);
  }

  @Override
  public List<Optional<String>> releaseAndTakeAll(List<String> released, List<Claim> claims, Instant now) {
    check();
    return ledger.releaseAndTakeAll(released, claims, now);
  }

  @Override
  public void releaseDevices(List<String> tasks, Instant now) {
    check();
    ledger.releaseDevices(tasks, now);
  }

  @Override
  public void waiting(List<Demand> demands, Instant now) {
    check();
    ledger.waiting(demands, now);
  }

  @Override
  public void leave(String state, Instant now) {
    check();
    ledger.leave(state, now);
  }

  @Override
  public List<RunEntry> runs(boolean ended, Instant now) {
    check();
    return ledger.runs(ended, now);
  }

  @Override
  public String where() {
    return ledger.where();
  }

  @Override
  public void close() {
    ledger.close();
  }
}

package dev.berth.testkit;

import dev.berth.spi.SharedReservations;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A host ledger that counts the steps (transactions) a run takes in the ledger it wraps: each
 * method but {@link #where} and {@link #close} is one, as every {@link SharedReservations} method is
 * one transaction. For tests of how often Berth's loop pays for the ledger.
 */
public final class CountingReservations implements SharedReservations {

  private final SharedReservations ledger;
  private int steps;
  private int claims;

  /** Counts the steps taken through {@code ledger}. */
  public CountingReservations(SharedReservations ledger) {
    this.ledger = ledger;
  }

  /** The steps taken so far. */
  public synchronized int steps() {
    return steps;
  }

  /** The claims made so far, taken or refused, over all steps. */
  public synchronized int claims() {
    return claims;
  }

  private synchronized void step(int claimed) {
    steps++;
    claims += claimed;
  }

  @Override
  public void join(Run run, Instant now) {
    step(0);
    ledger.join(run, now);
  }

  @Override
  public List<Reservation> look(Progress progress, List<Measured> measured, Instant now) {
    step(0);
    return ledger.look(progress, measured, now);
  }

  @Override
  public Optional<String> untold() {
    return ledger.untold(); // what the last look found: no step of its own
  }

  @Override
  public Optional<String> take(Claim claim, Instant now) {
    step(1);
    return ledger.take(claim, now);
  }

  @Override
  public void adopt(List<Claim> claims, Instant now) {
    step(claims.size());
    ledger.adopt(claims, now);
  }

  @Override
  public void release(String task, Instant now) {
    step(0);
    ledger.release(task, now);
  }

  @Override
  public void releaseAll(List<String> tasks, Instant now) {
    step(0);
    ledger.releaseAll(tasks, now);
  }

  @Override
  public void releaseDevices(List<String> tasks, Instant now) {
    step(0);
    ledger.releaseDevices(tasks, now);
  }

  @Override
  public List<Optional<String>> releaseAndTakeAll(List<String> released, List<Claim> claims, Instant now) {
    step(claims.size());
    return ledger.releaseAndTakeAll(released, claims, now);
  }

  @Override
  public void waiting(List<Demand> demands, Instant now) {
    step(0);
    ledger.waiting(demands, now);
  }

  @Override
  public void leave(String state, Instant now) {
    step(0);
    ledger.leave(state, now);
  }

  @Override
  public List<RunEntry> runs(boolean ended, Instant now) {
    step(0);
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

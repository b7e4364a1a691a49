package dev.berth.report;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock the test moves by hand. */
final class FakeInstants implements InstantSource {

  private Instant now;

  FakeInstants(Instant start) {
    this.now = start;
  }

  @Override
  public Instant instant() {
    return now;
  }

  void advance(Duration d) {
    now = now.plus(d);
  }
}

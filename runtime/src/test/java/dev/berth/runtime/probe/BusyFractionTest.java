package dev.berth.runtime.probe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BusyFractionTest {

  // Order of OSHI's tick types: user, nice, system, idle, iowait, irq, softirq, steal.

  @Test
  void busyTicksOverAllTicksGiveTheFraction() {
    long[] before = {100, 0, 50, 1000, 0, 0, 0, 0};
    long[] after = {130, 0, 70, 1050, 0, 0, 0, 0};

    assertThat(OshiHostProbe.busyFraction(before, after)).isEqualTo(0.5);
  }

  @Test
  void waitingForInputOrOutputCountsAsIdle() {
    long[] before = {0, 0, 0, 0, 0, 0, 0, 0};
    long[] after = {25, 0, 0, 50, 25, 0, 0, 0};

    assertThat(OshiHostProbe.busyFraction(before, after)).isEqualTo(0.25);
  }

  @Test
  void nicedLoadYieldsToUsAndCountsAsIdle() {
    // Two niced busy loops of another user on a four-CPU host: they give way to any normal-priority task.
    long[] before = {0, 0, 0, 0, 0, 0, 0, 0};
    long[] after = {100, 2000, 100, 1800, 0, 0, 0, 0};

    assertThat(OshiHostProbe.busyFraction(before, after)).isEqualTo(0.05);
  }

  @Test
  void noTicksInBetweenIsUnknownRatherThanIdle() {
    long[] ticks = {5, 5, 5, 5, 5, 5, 5, 5};

    assertThat(OshiHostProbe.busyFraction(ticks, ticks.clone())).isEqualTo(-1);
  }

  @Test
  void countersGoingBackwardsAreUnknown() {
    long[] before = {100, 0, 0, 100, 0, 0, 0, 0};
    long[] after = {50, 0, 0, 200, 0, 0, 0, 0};

    assertThat(OshiHostProbe.busyFraction(before, after)).isEqualTo(-1);
  }

  @Test
  void malformedReadingsAreUnknown() {
    assertThat(OshiHostProbe.busyFraction(new long[0], new long[0])).isEqualTo(-1);
  }
}

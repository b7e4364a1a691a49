package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.spi.SharedReservations.Share;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The host-wide order reads the users' recent usage only when it can change what comes first. */
class HostOrderTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final long GIB = 1L << 30;
  private static final Share DEVICE = new Share("sim:80GiB#0", "cuda:0", 0, 80 * GIB);
  private static final Run ALICE = new Run("a", "a", "/a", 1000, "alice", 1, 1);

  private final Map<String, RunRow> runs = new TreeMap<>(Map.of(
      "a", new RunRow("a", "h", "a", "/a", 1000, "alice", 1, 1, "running", 0, 0, 0, 0, T0, T0, null),
      "b", new RunRow("b", "h", "b", "/b", 1001, "bob", 2, 2, "running", 0, 0, 0, 0, T0, T0, null),
      "c", new RunRow("c", "h", "c", "/c", 1002, "carol", 3, 3, "running", 0, 0, 0, 0, T0, T0, null)));
  private final List<HoldRow> holds = List.of(new HoldRow("c", "v1", DEVICE.key(), "cuda:0", 40 * GIB, 0, 0, T0));
  private final AtomicInteger usageReads = new AtomicInteger();

  private static WaitRow bobWaits(long gib) {
    return new WaitRow("b", "u1", 0, T0, 0, 0, gib * GIB, 1, List.of(DEVICE));
  }

  private static Claim aliceClaims(long gib) {
    return new Claim("t1", 0, 0, 8000, List.of(new Share(DEVICE.key(), "cuda:0", gib * GIB, 80 * GIB)));
  }

  private HostOrder order(List<WaitRow> waits, Map<String, Double> recentUsage) {
    Supplier<Map<String, Double>> counted = () -> {
      usageReads.incrementAndGet();
      return recentUsage;
    };
    return HostOrder.of(waits, counted, runs, holds, Capacity.of(holds, runs), T0.plusSeconds(60));
  }

  @Test
  void theUsageIsNotReadWhenNoTaskOfAnotherRunWouldFitInWhatIsFreeNow() {
    HostOrder order = order(List.of(bobWaits(50)), Map.of()); // 40 of 80 GiB are free

    assertThat(order.ahead(ALICE, aliceClaims(30))).isEmpty();
    assertThat(usageReads).hasValue(0);
  }

  @Test
  void theUsageIsReadWhenATaskOfAnotherRunWouldFitAndItDecidesWhoComesFirst() {
    List<WaitRow> waits = List.of(bobWaits(30));

    assertThat(order(waits, Map.of()).ahead(ALICE, aliceClaims(30))).as("bob waited longer")
        .hasValueSatisfying(why -> assertThat(why).contains("task u1 of run b of user bob"));
    assertThat(order(waits, Map.of("bob", 1e6)).ahead(ALICE, aliceClaims(30))).as("bob used more lately").isEmpty();
    assertThat(usageReads).hasValue(2);
  }

  @Test
  void aClaimTakesThePlaceOfItsRunsLongestWaitSoThatNoCircleFormsBetweenTwoRunsQueues() {
    // Alice's run waited first, for a task its own queue holds back behind the one it claims now
    // (a loaded task's train share before new starts): the claim keeps the run's place.
    WaitRow aliceHeldBack = new WaitRow("a", "t9", 0, T0, 0, 0, 10 * GIB, 1, List.of(DEVICE));
    WaitRow bobLater = new WaitRow("b", "u1", 0, T0.plusSeconds(30), 0, 0, 30 * GIB, 1, List.of(DEVICE));

    assertThat(order(List.of(aliceHeldBack, bobLater), Map.of()).ahead(ALICE, aliceClaims(30))).isEmpty();
    assertThat(order(List.of(bobLater), Map.of()).ahead(ALICE, aliceClaims(30))).as("alice's run waited for nothing")
        .isPresent();
  }

  @Test
  void aRunsWaitOfALowerPriorityThanTheClaimLendsItsPlaceButNotOneOfAHigher() {
    WaitRow aliceLow = new WaitRow("a", "t9", -1, T0, 0, 0, 10 * GIB, 1, List.of(DEVICE));
    WaitRow bobLater = new WaitRow("b", "u1", 0, T0.plusSeconds(30), 0, 0, 30 * GIB, 1, List.of(DEVICE));
    WaitRow aliceHighWait = new WaitRow("a", "t8", 1, T0, 0, 0, 10 * GIB, 1, List.of(DEVICE));

    assertThat(order(List.of(aliceLow, bobLater), Map.of()).ahead(ALICE, aliceClaims(30))).isEmpty();
    assertThat(order(List.of(aliceHighWait, bobLater), Map.of()).ahead(ALICE, aliceClaims(30)))
        .as("a priority-1 wait does not lend its place to a priority-0 claim").isPresent();
  }
}

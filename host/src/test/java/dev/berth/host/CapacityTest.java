package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Share;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A refusal names the runs in the way as people know them, each once, in the order their holds came. */
class CapacityTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final long GIB = 1L << 30;
  private static final String HELD_BY_BOTH = "; held by run sweep of user alice, run other of user bob";

  private static RunRow run(String id, String name, String user) {
    return new RunRow(id, "h", name, "/" + name, 1000, user, 1, 1, "running", 0, 0, 0, 0, T0, T0, null);
  }

  private static HoldRow hold(String run, String task, long gib, long milliCpus) {
    return new HoldRow(run, task, "sim:24GiB#0", "cuda:0", gib * GIB, 0, milliCpus, T0);
  }

  @Test
  void twoRunsOfOneNameAndUserAreNamedOnceAfterTheRunThatHeldFirst() {
    Map<String, RunRow> runs = Map.of("r1", run("r1", "sweep", "alice"), "r2", run("r2", "other", "bob"),
        "r3", run("r3", "sweep", "alice"));
    Capacity held = Capacity.of(List.of(hold("r1", "t1", 8, 2000), hold("r2", "u1", 8, 2000), hold("r3", "t1", 8,
        2000), hold("r1", "t2", 0, 2000)), runs);

    assertThat(held.refusal(new Claim("x", 0, 0, 8000, List.of(new Share("sim:24GiB#0", "cuda:0", GIB, 24 * GIB)))))
        .hasValueSatisfying(why -> assertThat(why).endsWith(HELD_BY_BOTH));
    assertThat(held.refusal(new Claim("x", 0, 1000, 8000, List.of())))
        .hasValueSatisfying(why -> assertThat(why).endsWith(HELD_BY_BOTH));
  }

  @Test
  void aHoldOfARunThatIsNotLiveIsNamedByItsId() {
    Capacity held = Capacity.of(List.of(hold("gone", "t1", 24, 0)), Map.of());

    assertThat(held.refusal(new Claim("x", 0, 0, 8000, List.of(new Share("sim:24GiB#0", "cuda:0", GIB, 24 * GIB)))))
        .hasValueSatisfying(why -> assertThat(why).endsWith("; held by run gone"));
  }
}

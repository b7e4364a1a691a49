package dev.berth.core.gpu;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * {@code auto} (FLGo's auto scheduler, without its bugs): the device with the most free memory
 * first (truly sorted, ties by index), after dropping
 *
 * <ul>
 *   <li>devices Berth placed a task on less than {@code putInterval} ago: the task's memory may not
 *       show in the probe's reading yet;
 *   <li>devices whose {@link DeviceState#freeSince} is less than {@code availableInterval} ago: their
 *       memory was freed too recently to trust (a task between epochs, another user's job).
 * </ul>
 *
 * <p>A device placed on exactly {@code putInterval} ago, or free exactly {@code availableInterval},
 * is kept. A time after {@code now} counts as "just now". A device with no placement history or an
 * unknown {@code freeSince} (null) is not held back by that rule: the device budget is expected to
 * supply {@code freeSince} from the probe history. Both intervals default to FLGo's 5 seconds; 0
 * turns a rule off. The answer may be empty: the task then waits for a later pass.
 */
public final class AutoPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "auto";

  /** FLGo's default for both intervals. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

  private final Duration putInterval;
  private final Duration availableInterval;

  /** The policy with FLGo's defaults: 5 s put interval, 5 s available interval. */
  public AutoPlacement() {
    this(DEFAULT_INTERVAL, DEFAULT_INTERVAL);
  }

  /**
   * The policy with the given intervals.
   *
   * @throws IllegalArgumentException when an interval is negative
   */
  public AutoPlacement(Duration putInterval, Duration availableInterval) {
    this.putInterval = Objects.requireNonNull(putInterval, "putInterval");
    this.availableInterval = Objects.requireNonNull(availableInterval, "availableInterval");
    if (putInterval.isNegative() || availableInterval.isNegative()) {
      throw new IllegalArgumentException("auto's put-interval and available-interval must be >= 0");
    }
  }

  /** How long after a placement the device is skipped. */
  public Duration putInterval() {
    return putInterval;
  }

  /** How long a device must have had enough free memory before it is used. */
  public Duration availableInterval() {
    return availableInterval;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    Instant now = request.now();
    return Candidates.sorted(fitting, MostFreePlacement.MOST_FREE_FIRST).stream()
        .filter(d -> d.lastPlacedAt() == null || !within(d.lastPlacedAt(), now, putInterval))
        .filter(d -> d.freeSince() == null || !within(d.freeSince(), now, availableInterval))
        .toList();
  }

  /** Whether {@code then} is less than a non-zero {@code interval} before {@code now} (or after it). */
  private static boolean within(Instant then, Instant now, Duration interval) {
    return !interval.isZero() && Duration.between(then, now).compareTo(interval) < 0;
  }

  @Override
  public String toString() {
    return NAME + "(put-interval " + putInterval + ", available-interval " + availableInterval + ")";
  }
}

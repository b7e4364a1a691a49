package dev.berth.core.gpu;

import java.util.List;

/**
 * Orders the devices a task fits on, most preferred first.
 *
 * <p>Contract, checked for every built-in policy by a property test:
 *
 * <ul>
 *   <li>the answer holds only devices of {@code fitting}, each at most once (a policy may drop
 *       devices, as {@code auto} does; an empty answer means "wait");
 *   <li>it is a pure function of {@code fitting} as a set (the order of the list does not matter)
 *       and of {@code request}: no clock, no shared random source, no hash order;
 *   <li>{@code fitting} is not modified.
 * </ul>
 *
 * <p>The caller passes only devices the task fits on (the device budget's job, see
 * {@link DeviceState#fits}); policies do not check memory again. Device indices in {@code fitting}
 * must be distinct.
 */
public interface PlacementPolicy {

  /** The name users write, e.g. {@code best-fit}. */
  String name();

  /**
   * The devices that may be used for this placement, most preferred first.
   *
   * @param fitting the devices the task fits on, in any order, indices distinct
   * @param request what is asked, when, and the seed and sequence for random choices
   * @throws IllegalArgumentException when two devices share an index
   */
  List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request);
}

package dev.berth.core.gpu;

import java.time.Instant;
import java.util.List;

/** Tiny hand-made device lists and requests for the policy tests. */
final class PolicyFixtures {

  static final long GIB = 1L << 30;
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private PolicyFixtures() {}

  /** An 80 GiB device with {@code freeGiB} free and no Berth history. */
  static DeviceState gpu(int index, long freeGiB) {
    return DeviceState.of(index, 80 * GIB, freeGiB * GIB);
  }

  /** A device with the given total and free memory, in GiB. */
  static DeviceState gpu(int index, long totalGiB, long freeGiB) {
    return DeviceState.of(index, totalGiB * GIB, freeGiB * GIB);
  }

  /** A request for 1 GiB at {@link #NOW}, seed 42, as the {@code sequence}-th placement. */
  static PlacementRequest request(long sequence) {
    return new PlacementRequest(GIB, NOW, 42, sequence);
  }

  static PlacementRequest request() {
    return request(0);
  }

  static List<Integer> indices(List<DeviceState> devices) {
    return devices.stream().map(DeviceState::index).toList();
  }
}

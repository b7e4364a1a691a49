package dev.berth.core.gpu;

import java.time.Instant;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * What one placement asks for, with everything a policy may base its answer on besides the devices.
 *
 * @param gpuMemoryBytes the GPU memory the task asks for
 * @param now the time of the scheduling pass
 * @param seed the run's placement seed (fixed per run, e.g. from the spec or the run's start)
 * @param sequence how many placements were decided in the run before this one (0 for the first)
 * @param keepRoomBytes the largest GPU memory another task of the run waits for (0: none), which a
 *     policy that spreads tasks keeps room for on some device rather than fragment every device
 */
public record PlacementRequest(long gpuMemoryBytes, Instant now, long seed, long sequence, long keepRoomBytes) {

  /** Validates. */
  public PlacementRequest {
    Objects.requireNonNull(now, "now");
    if (gpuMemoryBytes < 0) {
      throw new IllegalArgumentException("gpuMemoryBytes must be >= 0 but was " + gpuMemoryBytes);
    }
    if (sequence < 0) {
      throw new IllegalArgumentException("sequence must be >= 0 but was " + sequence);
    }
    if (keepRoomBytes < 0) {
      throw new IllegalArgumentException("keepRoomBytes must be >= 0 but was " + keepRoomBytes);
    }
  }

  /** A request with no other task waiting for GPU memory. */
  public PlacementRequest(long gpuMemoryBytes, Instant now, long seed, long sequence) {
    this(gpuMemoryBytes, now, seed, sequence, 0);
  }

  /**
   * A random source that is a function of {@code seed} and {@code sequence} only: equal requests
   * give equal streams, and consecutive placements of a run get unrelated streams.
   */
  public SplittableRandom random() {
    return new SplittableRandom(seed ^ mix(sequence));
  }

  /** SplitMix64's finalizer: spreads consecutive longs over the whole range. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}

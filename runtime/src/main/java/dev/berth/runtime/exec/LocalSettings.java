package dev.berth.runtime.exec;

import java.util.Optional;

/**
 * How the local process executor treats each attempt: whether its memory is limited in its cgroup and
 * how much of its output is kept. Read from {@link LocalKeys#TABLE}, whose keys keep the
 * {@code scheduler} section they were first written in.
 *
 * @param enforceMemoryChoice whether an attempt whose task leaves it open has its memory limited to its
 *     reservation plus a margin ({@code scheduler.enforce-memory}); empty when the run leaves it to
 *     where it runs ({@code auto}): off on a machine of its own, on inside a Slurm allocation
 * @param logCapBytes the most kept of each attempt's stdout and stderr file ({@code scheduler.log-cap})
 */
public record LocalSettings(Optional<Boolean> enforceMemoryChoice, long logCapBytes) {

  /** The least log cap: room for a head, the marker line and a tail worth reading. */
  private static final long MIN_LOG_CAP = 64L << 10;

  /** The settings when nothing is set. */
  public static final LocalSettings DEFAULTS = builder().build();

  /** Checks the log cap, naming its key. */
  public LocalSettings {
    java.util.Objects.requireNonNull(enforceMemoryChoice, "enforceMemoryChoice");
    if (logCapBytes < MIN_LOG_CAP) {
      throw new IllegalArgumentException("scheduler.log-cap must be at least 64KiB but was " + logCapBytes + " bytes");
    }
  }

  /** Whether an attempt whose task leaves it open has its memory limited: the run's choice, off when it made none. */
  public boolean enforceMemory() {
    return enforceMemoryChoice.orElse(false);
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings. */
  public Builder toBuilder() {
    return new Builder().enforceMemoryChoice(enforceMemoryChoice.orElse(null)).logCapBytes(logCapBytes);
  }

  /** Mutable builder for {@link LocalKeys#TABLE}. */
  public static final class Builder {
    private Boolean enforceMemory;
    private long logCapBytes = 1L << 30;

    private Builder() {}

    /** {@code scheduler.enforce-memory}. */
    public Builder enforceMemory(boolean v) {
      enforceMemory = v;
      return this;
    }

    /** {@code scheduler.enforce-memory} as written: true, false, or null for {@code auto}. */
    public Builder enforceMemoryChoice(Boolean v) {
      enforceMemory = v;
      return this;
    }

    /** {@code scheduler.log-cap}. */
    public Builder logCapBytes(long v) {
      logCapBytes = v;
      return this;
    }

    /** Builds. */
    public LocalSettings build() {
      return new LocalSettings(Optional.ofNullable(enforceMemory), logCapBytes);
    }
  }
}

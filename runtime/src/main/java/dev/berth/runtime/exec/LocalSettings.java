package dev.berth.runtime.exec;

/**
 * How the local process executor treats each attempt: whether its memory is limited in its cgroup and
 * how much of its output is kept. Read from {@link LocalKeys#TABLE}, whose keys keep the
 * {@code scheduler} section they were first written in.
 *
 * @param enforceMemory whether an attempt whose task leaves it open has its memory limited to its
 *     reservation plus a margin ({@code scheduler.enforce-memory})
 * @param logCapBytes the most kept of each attempt's stdout and stderr file ({@code scheduler.log-cap})
 */
public record LocalSettings(boolean enforceMemory, long logCapBytes) {

  /** The least log cap: room for a head, the marker line and a tail worth reading. */
  private static final long MIN_LOG_CAP = 64L << 10;

  /** The settings when nothing is set. */
  public static final LocalSettings DEFAULTS = builder().build();

  /** Checks the log cap, naming its key. */
  public LocalSettings {
    if (logCapBytes < MIN_LOG_CAP) {
      throw new IllegalArgumentException("scheduler.log-cap must be at least 64KiB but was " + logCapBytes + " bytes");
    }
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Mutable builder for {@link LocalKeys#TABLE}. */
  public static final class Builder {
    private boolean enforceMemory;
    private long logCapBytes = 1L << 30;

    private Builder() {}

    /** {@code scheduler.enforce-memory}. */
    public Builder enforceMemory(boolean v) {
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
      return new LocalSettings(enforceMemory, logCapBytes);
    }
  }
}

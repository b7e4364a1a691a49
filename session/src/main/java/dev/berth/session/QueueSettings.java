package dev.berth.session;

import java.time.Duration;
import java.util.Objects;

/**
 * How a user's queue behaves, read from {@link QueueKeys#TABLE}.
 *
 * @param idleExit how long the queue's process waits with nothing left to run before it ends
 */
public record QueueSettings(Duration idleExit) {

  /** The settings when nothing is set. */
  public static final QueueSettings DEFAULTS = builder().build();

  /** Checks the value is given. */
  public QueueSettings {
    Objects.requireNonNull(idleExit, "idleExit");
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Mutable builder for {@link QueueKeys#TABLE}. */
  public static final class Builder {
    private Duration idleExit = Duration.ofMinutes(10);

    private Builder() {}

    /** {@code queue.idle-exit}. */
    public Builder idleExit(Duration v) {
      idleExit = v;
      return this;
    }

    /** Builds. */
    public QueueSettings build() {
      return new QueueSettings(idleExit);
    }
  }
}

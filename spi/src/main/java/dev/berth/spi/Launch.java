package dev.berth.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * How one request of {@link Executor#launchAll} went: started, or refused with the reason.
 *
 * @param request the request
 * @param execution the started attempt, when it started
 * @param failure why it did not, otherwise
 */
public record Launch(LaunchRequest request, Optional<Execution> execution, Optional<LaunchException> failure) {

  /** Validates: exactly one of execution and failure. */
  public Launch {
    Objects.requireNonNull(request, "request");
    if (execution.isPresent() == failure.isPresent()) {
      throw new IllegalArgumentException("a launch either started or failed");
    }
  }

  /** A started attempt. */
  public static Launch started(LaunchRequest request, Execution execution) {
    return new Launch(request, Optional.of(execution), Optional.empty());
  }

  /** An attempt that could not start. */
  public static Launch failed(LaunchRequest request, LaunchException failure) {
    return new Launch(request, Optional.empty(), Optional.of(failure));
  }
}

package dev.berth.core.model;

import java.util.Objects;
import java.util.Optional;

/**
 * The result key a sweep is ranked by in the reports.
 *
 * @param objectiveKey the result key sweeps are ranked by ({@code objective.key}), if any
 * @param maximize whether higher is better ({@code objective.goal: max})
 */
public record Reporting(Optional<String> objectiveKey, boolean maximize) {

  /** No objective. */
  public static final Reporting NONE = new Reporting(Optional.empty(), true);

  /** Checks. */
  public Reporting {
    Objects.requireNonNull(objectiveKey, "objectiveKey");
  }
}

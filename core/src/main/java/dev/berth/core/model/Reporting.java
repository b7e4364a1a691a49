package dev.berth.core.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a run reports beyond {@code report.json}: the result key a sweep is ranked by, and the
 * webhook notified of events.
 *
 * @param objectiveKey the result key sweeps are ranked by ({@code objective.key}), if any
 * @param maximize whether higher is better ({@code objective.goal: max})
 * @param webhookUrl where events are posted ({@code notify.webhook}), if anywhere
 * @param webhookEvents which events: {@code run-end}, {@code task-failed}, {@code group-end} ({@code notify.on})
 */
public record Reporting(
    Optional<String> objectiveKey, boolean maximize, Optional<String> webhookUrl, List<String> webhookEvents) {

  /** No objective, no webhook. */
  public static final Reporting NONE = new Reporting(Optional.empty(), true, Optional.empty(), List.of());

  /** Copies. */
  public Reporting {
    Objects.requireNonNull(objectiveKey, "objectiveKey");
    Objects.requireNonNull(webhookUrl, "webhookUrl");
    webhookEvents = List.copyOf(webhookEvents);
  }
}

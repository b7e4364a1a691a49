package dev.berth.core.scheduling;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.Refusal;
import java.util.List;

/**
 * A ready task that was not started in a pass, and why.
 *
 * @param task the task
 * @param refusals every reason it was refused, most important first
 */
public record Waiting(TaskId task, List<Refusal> refusals) {

  /** Copies the list. */
  public Waiting {
    refusals = List.copyOf(refusals);
  }
}

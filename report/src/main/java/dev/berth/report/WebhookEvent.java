package dev.berth.report;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What a webhook can be told about. */
public enum WebhookEvent {
  /** The run finished. */
  RUN_END("run-end"),
  /** A task failed for good (after its retries). */
  TASK_FAILED("task-failed"),
  /** A group finished. */
  GROUP_END("group-end");

  private final String key;

  WebhookEvent(String key) {
    this.key = key;
  }

  /** The name used in specs and payloads, e.g. {@code run-end}. */
  public String key() {
    return key;
  }

  /** The spec name, e.g. {@code run-end}. */
  @Override
  public String toString() {
    return key;
  }

  /**
   * The event with this spec name.
   *
   * @throws IllegalArgumentException naming the valid names
   */
  public static WebhookEvent parse(String key) {
    for (WebhookEvent e : values()) {
      if (e.key.equals(key == null ? null : key.strip())) {
        return e;
      }
    }
    throw new IllegalArgumentException("'" + key + "' is not a webhook event; use "
        + Arrays.stream(values()).map(WebhookEvent::key).collect(Collectors.joining(", ")));
  }
}

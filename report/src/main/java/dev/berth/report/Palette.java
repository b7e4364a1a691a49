package dev.berth.report;

import java.util.Map;

/** The colours of outcomes and statuses; one place, so the timeline, its legend and the badges agree. */
final class Palette {

  private static final Map<String, String> OUTCOMES = Map.of(
      "SUCCEEDED", "#2f9e6e",
      "FAILED", "#d64545",
      "KILLED", "#a23b72",
      "HOST_OOM", "#e8833a",
      "GPU_OOM", "#8e5bc4",
      "START_FAILED", "#6b7280",
      "TIMED_OUT", "#c9a227",
      "CANCELLED", "#9ca3af",
      "RUNNING", "#3b82f6");

  /** Lines of the memory chart: host first, then one per GPU device. */
  static final String[] SERIES = {"#3b82f6", "#e8833a", "#8e5bc4", "#2f9e6e", "#d64545", "#0f766e", "#a23b72"};

  private Palette() {}

  /** The fill of an attempt that ended with this outcome name. */
  static String outcome(String outcome) {
    return OUTCOMES.getOrDefault(outcome, "#6b7280");
  }

  /** The CSS class of a status badge: the status name in lower case, which the style sheet knows. */
  static String badge(String status) {
    return "badge s-" + status.toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}

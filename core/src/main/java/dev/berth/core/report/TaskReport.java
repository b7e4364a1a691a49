package dev.berth.core.report;

import java.util.List;
import java.util.SortedMap;

/**
 * One task as reported.
 *
 * @param id task id
 * @param group its group
 * @param status how it ended
 * @param command its argument vector
 * @param workdir its working folder
 * @param params matrix values it was expanded from
 * @param error why it did not succeed, or null
 * @param attempts its attempts, oldest first
 */
public record TaskReport(
    String id,
    String group,
    TaskStatus status,
    List<String> command,
    String workdir,
    SortedMap<String, String> params,
    String error,
    List<AttemptReport> attempts) {

  /** Copies the lists. */
  public TaskReport {
    command = List.copyOf(command);
    attempts = List.copyOf(attempts);
  }
}

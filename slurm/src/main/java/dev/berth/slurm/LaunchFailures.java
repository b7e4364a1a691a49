package dev.berth.slurm;

import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.util.List;

/** The Slurm executor's launch failures, each naming the program, the task and the attempt it is about. */
final class LaunchFailures {

  private static final String LATER = " was not submitted to Slurm for now: ";

  private LaunchFailures() {}

  /** The failure to start {@code request} because of {@code reason}. */
  static LaunchException of(LaunchRequest request, String reason, Exception cause) {
    return new LaunchException(prefix(request) + reason, cause);
  }

  /**
   * The refusal for now of {@code request} because of {@code reason}: the cluster holds as many of the
   * run's jobs as it takes ({@link QueueRoom}).
   */
  static LaunchException later(LaunchRequest request, String reason) {
    return LaunchException.later("task " + request.task() + " attempt " + request.attempt()
        + LATER + reason, null);
  }

  /** The reason of a refusal for now ({@link #later}) without what it was about. */
  static String laterReason(String message) {
    int at = message.indexOf(LATER);
    return at < 0 ? message : message.substring(at + LATER.length());
  }

  /** The reason of an array's failure without the "cannot start" prefix, naming the element it was about. */
  static String withoutPrefix(List<LaunchRequest> elements, String message) {
    for (int k = 0; k < elements.size(); k++) {
      String prefix = prefix(elements.get(k));
      if (message.startsWith(prefix)) {
        String reason = message.substring(prefix.length());
        return k == 0 ? reason : "task " + elements.get(k).task() + ": " + reason;
      }
    }
    return message;
  }

  private static String prefix(LaunchRequest request) {
    return "cannot start '" + request.command().get(0) + "' for task " + request.task() + " attempt "
        + request.attempt() + " on Slurm: ";
  }
}

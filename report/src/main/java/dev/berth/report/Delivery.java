package dev.berth.report;

import java.util.Objects;

/**
 * What became of one notification. Notifications never throw into the run: a mail server that is down or a
 * webhook that refuses is a {@link Status#FAILED} delivery with its reason.
 *
 * @param status whether it was sent, deliberately not sent, or failed
 * @param detail what was sent where, why it was skipped, or why it failed; never a password
 */
public record Delivery(Status status, String detail) {

  /** The three ways a notification ends. */
  public enum Status {
    /** Accepted by the mail server or the webhook. */
    SENT,
    /** Not sent on purpose: disabled, not subscribed, or held back by the mail policy. */
    SKIPPED,
    /** Tried and failed. */
    FAILED
  }

  /** Checks both parts. */
  public Delivery {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(detail, "detail");
  }

  /** Accepted. */
  public static Delivery sent(String detail) {
    return new Delivery(Status.SENT, detail);
  }

  /** Not sent on purpose. */
  public static Delivery skipped(String reason) {
    return new Delivery(Status.SKIPPED, reason);
  }

  /** Tried and failed. */
  public static Delivery failed(String reason) {
    return new Delivery(Status.FAILED, reason);
  }

  /** Whether it was sent. */
  public boolean wasSent() {
    return status == Status.SENT;
  }

  /** A line for a log, e.g. {@code FAILED: smtp 127.0.0.1:1: Connection refused}. */
  @Override
  public String toString() {
    return status + ": " + detail;
  }
}

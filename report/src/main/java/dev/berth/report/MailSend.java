package dev.berth.report;

import java.util.Locale;

/** Which reports are mailed ({@code smtp.send}). */
public enum MailSend {
  /** Each group's, after it ends, as fedflow does. */
  GROUP,
  /** The run's, once it ends. */
  RUN,
  /** Both. */
  BOTH;

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}

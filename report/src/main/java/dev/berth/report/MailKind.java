package dev.berth.report;

import java.util.Locale;

/** What a mail reports on; the mail policy spaces out mails of the same kind. */
public enum MailKind {
  /** One group finished. */
  GROUP,
  /** The whole run finished. */
  RUN;

  /** {@code group} or {@code run}, as subjects and messages say it. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }
}

package dev.berth.report;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * fedflow's limits on mail: at least {@code smtp.min-interval} between two mails of the same kind, and at most
 * {@code smtp.max-numbers} mails in a run. Takes the time as an argument and reads no clock. A mail that was
 * tried counts even when the server refused it, so a broken server is not hammered.
 */
public final class MailPolicy {

  private final Duration minInterval;
  private final int maxNumbers;
  private final Map<MailKind, Instant> last = new EnumMap<>(MailKind.class);
  private int sent;

  /**
   * Creates a policy with nothing sent yet.
   *
   * @param minInterval least time between two mails of the same kind; zero for none
   * @param maxNumbers most mails in a run; 0 for no limit
   */
  public MailPolicy(Duration minInterval, int maxNumbers) {
    if (minInterval.isNegative()) {
      throw new IllegalArgumentException("smtp.min-interval must not be negative, got " + minInterval);
    }
    if (maxNumbers < 0) {
      throw new IllegalArgumentException("smtp.max-numbers must be 0 (no limit) or more, got " + maxNumbers);
    }
    this.minInterval = minInterval;
    this.maxNumbers = maxNumbers;
  }

  /** The policy the settings ask for. */
  public static MailPolicy of(SmtpSettings settings) {
    return new MailPolicy(settings.minInterval(), settings.maxNumbers());
  }

  /** Why a mail of this kind may not go at {@code now}, or empty when it may. Changes nothing. */
  public synchronized Optional<String> refusal(MailKind kind, Instant now) {
    if (maxNumbers > 0 && sent >= maxNumbers) {
      return Optional.of("smtp.max-numbers reached: " + sent + " mails already sent in this run");
    }
    Instant previous = last.get(kind);
    if (previous != null) {
      Duration since = Duration.between(previous, now);
      if (since.compareTo(minInterval) < 0) {
        return Optional.of("smtp.min-interval: the last " + kind.word() + " mail went " + Formats.duration(since)
            + " ago, less than " + Formats.duration(minInterval));
      }
    }
    return Optional.empty();
  }

  /** Takes a place for a mail at {@code now} when the rules allow it; returns why not otherwise. */
  public synchronized Optional<String> tryAcquire(MailKind kind, Instant now) {
    Optional<String> refusal = refusal(kind, now);
    if (refusal.isEmpty()) {
      last.put(kind, now);
      sent++;
    }
    return refusal;
  }

  /** Mails counted so far. */
  public synchronized int sent() {
    return sent;
  }
}

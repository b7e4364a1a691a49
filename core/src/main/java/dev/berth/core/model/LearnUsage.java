package dev.berth.core.model;

import java.util.Locale;

/**
 * Under placement {@code auto}, how a group's GPU estimate is learned from the measured peaks of its
 * ended tasks ({@code scheduler.learn-usage}).
 */
public enum LearnUsage {
  /** The mean of the peaks. */
  MEAN,
  /** The largest peak. */
  MAX,
  /** Not at all: each task keeps its own estimate. */
  OFF;

  /** The name as a config file writes it, e.g. {@code mean}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return label();
  }
}

package dev.berth.spi;

import java.util.Locale;

/**
 * What Ctrl-C does to the jobs a run submitted to a cluster, which outlive Berth ({@code slurm.on-exit},
 * or {@code --on-exit}): here, beside the executor, so that a front door names it without depending on the
 * Slurm adapter.
 */
public enum JobsOnExit {
  /** Ask on a terminal; elsewhere cancel. */
  ASK,
  /** Cancel them. */
  CANCEL,
  /** Leave them running for a later {@code berth resume}. */
  LEAVE;

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}

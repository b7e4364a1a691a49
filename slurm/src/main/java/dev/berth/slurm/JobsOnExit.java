package dev.berth.slurm;

import java.util.Locale;

/** What Ctrl-C does to the jobs a run submitted ({@code slurm.on-exit}). */
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

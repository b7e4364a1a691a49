package dev.berth.core.model;

import java.util.Locale;

/** Where tasks run ({@code scheduler.executor}, or a spec's top-level {@code executor:}). */
public enum ExecutorKind {
  /** Processes on this machine, placed by Berth. */
  LOCAL,
  /** Batch jobs on a Slurm cluster, which decides where and when. */
  SLURM;

  /** The name as a config file writes it, e.g. {@code local}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return label();
  }
}

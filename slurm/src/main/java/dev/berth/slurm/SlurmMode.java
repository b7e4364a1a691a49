package dev.berth.slurm;

import java.util.Locale;

/** How a run uses the cluster ({@code slurm.mode}). */
public enum SlurmMode {
  /** Every attempt is a batch job; matrix tasks with the same resources share a job array. */
  JOBS,
  /** Berth asks for whole allocations and packs the tasks inside each with its own local engine. */
  ALLOCATION;

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}

package dev.berth.protocol;

/** What a two-stage task process reports it is doing, in fedflow's terms. */
public enum TaskPhase {
  /** Running its load stage on the CPU. */
  LOADING,
  /** Loaded, and waiting for a {@code train} command with a device. */
  WAITING,
  /** Running its train stage on the device it was given. */
  TRAINING
}

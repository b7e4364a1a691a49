package dev.berth.protocol;

/** The stage of a two-stage task in which an out-of-memory error or an exception happened. */
public enum Stage {
  /** Loading data on the CPU. */
  LOAD,
  /** Training on the device Berth handed over. */
  TRAIN
}

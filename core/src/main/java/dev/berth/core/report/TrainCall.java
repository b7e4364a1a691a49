package dev.berth.core.report;

import java.time.Instant;

/**
 * One train call of a two-stage attempt: the loaded process was handed a device and told to train.
 * An attempt that ran out of GPU memory while training keeps its process and trains again, so one
 * attempt can hold several train calls.
 *
 * @param number 1-based number of the call over the task's life (the {@code Trained} event's)
 * @param device the GPU id, or {@code "cpu"}, it trained on
 * @param reservedGpuMemoryBytes GPU memory reserved for the call
 * @param startedAt when it was told to train
 * @param finishedAt when it trained, reported trouble or its attempt ended, or null while it trains
 * @param outcome {@code TRAINED}, the outcome the task reported (e.g. {@code GPU_OOM}), the attempt's
 *     outcome when the attempt ended during the call, or {@code RUNNING}
 * @param error what the task reported, or the attempt's error, or null
 */
public record TrainCall(
    int number,
    String device,
    long reservedGpuMemoryBytes,
    Instant startedAt,
    Instant finishedAt,
    String outcome,
    String error) {

  /** How a train call that finished training ends. */
  public static final String TRAINED = "TRAINED";

  /** How a train call that has not ended yet ends. */
  public static final String RUNNING = "RUNNING";

  /** The same call, ended at {@code at} with {@code outcome} and {@code error}. */
  TrainCall endedWith(Instant at, String endOutcome, String endError) {
    return new TrainCall(number, device, reservedGpuMemoryBytes, startedAt, at, endOutcome, endError);
  }
}

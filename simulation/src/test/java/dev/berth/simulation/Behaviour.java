package dev.berth.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

/** What one attempt's process does, drawn when it starts. */
enum Behaviour {
  /** Works, then exits 0. */
  SUCCEED(false, null),
  /** Works, writes result.json, then exits 0. */
  SUCCEED_WITH_RESULT(false, null),
  /** Exits 1. */
  FAIL(false, null),
  /** Dies by SIGKILL (137), as the kernel's OOM killer ends it. */
  KILLED(false, null),
  /** Never ends by itself: only its timeout ends it (drawn only for tasks with one). */
  HANG(false, null),
  /** Starts background children that outlive it, writes result.json, then exits 0. */
  LEAVE_CHILDREN(false, Fault.CHILDREN),
  /** Loads, trains, reports its result and finishes, then exits 0. */
  TWO_STAGE_OK(true, null),
  /** Runs out of host memory while loading. */
  LOAD_HOST_OOM(true, null),
  /** Raises while loading. */
  LOAD_FAIL(true, null),
  /** Runs out of GPU memory in its first train call, then waits for a bigger reservation and succeeds. */
  TRAIN_GPU_OOM_ONCE(true, Fault.TRAIN_GPU_OOM),
  /** Exits 0 in the middle of training, without a result. */
  EXIT_ZERO_MID_TRAIN(true, null),
  /** Dies by SIGKILL while training. */
  TRAIN_KILLED(true, null);

  final boolean twoStage;
  /** The fault kind that must be enabled for this behaviour to be drawn; null when always. */
  final Fault needs;

  Behaviour(boolean twoStage, Fault needs) {
    this.twoStage = twoStage;
    this.needs = needs;
  }

  /** A behaviour for an attempt of a task, among those the enabled faults allow; mostly success. */
  static Behaviour draw(Random random, boolean twoStage, boolean hasTimeout, Set<Fault> faults) {
    List<Behaviour> allowed = new ArrayList<>();
    for (Behaviour b : values()) {
      if (b.twoStage == twoStage && (b.needs == null || faults.contains(b.needs)) && (b != HANG || hasTimeout)) {
        allowed.add(b);
      }
    }
    if (random.nextInt(100) < 55) {
      return twoStage ? TWO_STAGE_OK : random.nextBoolean() ? SUCCEED : SUCCEED_WITH_RESULT;
    }
    return allowed.get(random.nextInt(allowed.size()));
  }
}

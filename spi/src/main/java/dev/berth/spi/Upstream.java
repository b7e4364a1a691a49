package dev.berth.spi;

import java.util.List;
import java.util.Objects;

/**
 * Dependencies an executor is asked to hold on the task's behalf: the attempt may only begin once
 * {@code parents} have ended as the flags say. Only executors that can hold an attempt back (a batch
 * system's job dependencies) get one; the parents are executions this executor started.
 *
 * @param parents the parents' running executions, in the order of the task's dependency
 * @param all whether every parent must satisfy the edge, or any one
 * @param success whether a parent that succeeded satisfies it
 * @param failure whether a parent that failed satisfies it
 */
public record Upstream(List<Execution> parents, boolean all, boolean success, boolean failure) {

  /** Validates: at least one parent, and at least one of success and failure. */
  public Upstream {
    parents = List.copyOf(parents);
    if (parents.isEmpty()) {
      throw new IllegalArgumentException("an upstream needs at least one parent");
    }
    if (!success && !failure) {
      throw new IllegalArgumentException("an upstream with success and failure both false can never be met");
    }
    parents.forEach(p -> Objects.requireNonNull(p, "parent"));
  }
}

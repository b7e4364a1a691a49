package dev.berth.core.report;

import java.time.Instant;
import java.util.Objects;

/**
 * A change of a run's spec that the run went on with ({@code berth run} of a changed spec on a
 * finished run, or {@code --allow-changed=new}): when, how many tasks it added, removed and changed,
 * and its one-line summary, e.g. {@code 3 tasks added (seed=4), 0 removed, 0 changed}.
 *
 * @param at when the run went on with the changed spec
 * @param added tasks the new spec added
 * @param removed tasks it removed
 * @param changed tasks in both whose settings changed
 * @param summary the change in one line, for people
 */
public record Revision(Instant at, int added, int removed, int changed, String summary) {

  /** Validates. */
  public Revision {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(summary, "summary");
    if (added < 0 || removed < 0 || changed < 0) {
      throw new IllegalArgumentException("a revision's counts are not negative: " + added + ", " + removed + ", "
          + changed);
    }
  }
}

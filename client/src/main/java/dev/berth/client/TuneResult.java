package dev.berth.client;

import dev.berth.report.Objective;
import dev.berth.report.SweepTable;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The outcome of a {@link Berth#tune}: every trial ranked by the objective, and the same
 * {@link SweepTable} the sweep section of the reports shows.
 *
 * @param objective what ranked the trials
 * @param table the sweep table: one row per trial, best first, trials lacking the objective's key last
 * @param trials the trials in the table's order
 * @param group how the tune's group ended
 */
public record TuneResult(Objective objective, SweepTable table, List<TuneResult.Trial> trials, GroupResult group) {

  /**
   * One combination of the grid and how it did.
   *
   * @param option the combination with the values as given in the grid, in the grid's key order
   * @param task how its task ended
   * @param score the objective's value, or null when the task did not report it
   */
  public record Trial(Map<String, Object> option, TaskResult task, Object score) {}

  /** Copies the list. */
  public TuneResult {
    trials = List.copyOf(trials);
  }

  /** The best trial: the first one, when it reported the objective's key. */
  public Optional<Trial> best() {
    return trials.isEmpty() || trials.get(0).score() == null ? Optional.empty() : Optional.of(trials.get(0));
  }

  /** The best combination with the values as given in the grid (FLGo's tune result). */
  public Optional<Map<String, Object>> bestOption() {
    return best().map(Trial::option);
  }

  /** The table as text: one line per trial, best first, with the objective's value. */
  public String render() {
    StringBuilder out = new StringBuilder(table.title()).append('\n');
    for (Trial t : trials) {
      out.append(String.format("  %-24s %-10s %s = %s  %s%n", t.task().id(), t.task().status(), objective.key(),
          t.score() == null ? "-" : t.score(), t.option()));
    }
    return out.toString();
  }
}

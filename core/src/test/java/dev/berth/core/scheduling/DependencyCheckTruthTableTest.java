package dev.berth.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.TaskId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole truth table of {@link DependencyCheck#evaluate}: all/any x success/failure flags x the outcome of
 * each parent, for one and for two parents. The expected tables are written out by hand below,
 * one letter per cell (M = MET, P = PENDING, I = IMPOSSIBLE), not computed from any rule.
 */
class DependencyCheckTruthTableTest {

  /** How a parent stands, and a lifecycle state standing for it. */
  enum Parent {
    OK(TaskState.SUCCEEDED),
    FAILED(TaskState.FAILED),
    TIMED_OUT(TaskState.TIMED_OUT),
    UNREACHABLE(TaskState.UNREACHABLE),
    CANCELLED(TaskState.CANCELLED),
    PENDING(TaskState.RUNNING);

    final TaskState state;

    Parent(TaskState state) {
      this.state = state;
    }
  }

  /** The three valid success/failure combinations. */
  enum Flags {
    SUCCESS_ONLY(true, false),
    FAILURE_ONLY(false, true),
    EITHER(true, true);

    final boolean success;
    final boolean failure;

    Flags(boolean success, boolean failure) {
      this.success = success;
      this.failure = failure;
    }
  }

  private static final TaskId P1 = TaskId.of("p1");
  private static final TaskId P2 = TaskId.of("p2");

  // One parent: columns in Parent order OK FAILED TIMED_OUT UNREACHABLE CANCELLED PENDING.
  // With one parent all and any mean the same, so each row is checked for both.
  private static final Map<Flags, String> ONE_PARENT = Map.of(
      Flags.SUCCESS_ONLY, "M I I I I P",
      Flags.FAILURE_ONLY, "I M M M I P",
      Flags.EITHER, "M M M M I P");

  // Two parents: rows are p1 and columns p2, both in Parent order.
  private static final Map<Flags, String[]> ALL_OF_TWO = Map.of(
      Flags.SUCCESS_ONLY, new String[] {
          "M I I I I P", // p1 OK
          "I I I I I I", // p1 FAILED
          "I I I I I I", // p1 TIMED_OUT
          "I I I I I I", // p1 UNREACHABLE
          "I I I I I I", // p1 CANCELLED
          "P I I I I P"}, // p1 PENDING
      Flags.FAILURE_ONLY, new String[] {
          "I I I I I I",
          "I M M M I P",
          "I M M M I P",
          "I M M M I P",
          "I I I I I I",
          "I P P P I P"},
      Flags.EITHER, new String[] {
          "M M M M I P",
          "M M M M I P",
          "M M M M I P",
          "M M M M I P",
          "I I I I I I",
          "P P P P I P"});

  private static final Map<Flags, String[]> ANY_OF_TWO = Map.of(
      Flags.SUCCESS_ONLY, new String[] {
          "M M M M M M",
          "M I I I I P",
          "M I I I I P",
          "M I I I I P",
          "M I I I I P",
          "M P P P P P"},
      Flags.FAILURE_ONLY, new String[] {
          "I M M M I P",
          "M M M M M M",
          "M M M M M M",
          "M M M M M M",
          "I M M M I P",
          "P M M M P P"},
      Flags.EITHER, new String[] {
          "M M M M M M",
          "M M M M M M",
          "M M M M M M",
          "M M M M M M",
          "M M M M I P",
          "M M M M P P"});

  private static DependencyCheck.Status status(char cell) {
    switch (cell) {
      case 'M':
        return DependencyCheck.Status.MET;
      case 'P':
        return DependencyCheck.Status.PENDING;
      case 'I':
        return DependencyCheck.Status.IMPOSSIBLE;
      default:
        throw new IllegalArgumentException("bad cell " + cell);
    }
  }

  private static char cell(String row, int column) {
    return row.replace(" ", "").charAt(column);
  }

  static Stream<Arguments> oneParentRows() {
    List<Arguments> rows = new ArrayList<>();
    for (boolean all : new boolean[] {true, false}) {
      for (Flags flags : Flags.values()) {
        for (Parent p : Parent.values()) {
          rows.add(Arguments.of(all, flags, p, status(cell(ONE_PARENT.get(flags), p.ordinal()))));
        }
      }
    }
    return rows.stream();
  }

  static Stream<Arguments> twoParentRows() {
    List<Arguments> rows = new ArrayList<>();
    for (boolean all : new boolean[] {true, false}) {
      Map<Flags, String[]> table = all ? ALL_OF_TWO : ANY_OF_TWO;
      for (Flags flags : Flags.values()) {
        for (Parent p1 : Parent.values()) {
          for (Parent p2 : Parent.values()) {
            rows.add(Arguments.of(all, flags, p1, p2, status(cell(table.get(flags)[p1.ordinal()], p2.ordinal()))));
          }
        }
      }
    }
    return rows.stream();
  }

  @ParameterizedTest(name = "all={0} {1}: parent {2} -> {3}")
  @MethodSource("oneParentRows")
  void aSingleParentEdgeFollowsTheTable(boolean all, Flags flags, Parent parent, DependencyCheck.Status expected) {
    Dependency d = new Dependency(List.of(P1), all, flags.success, flags.failure);

    DependencyCheck.Evaluation e = DependencyCheck.evaluate(d, id -> parent.state);

    assertThat(e.status()).isEqualTo(expected);
    Optional<TaskId> cancelledBy = expected == DependencyCheck.Status.IMPOSSIBLE && parent == Parent.CANCELLED
        ? Optional.of(P1) : Optional.empty();
    assertThat(e.cancelledBy()).isEqualTo(cancelledBy);
    checkReason(e, List.of(P1));
  }

  @ParameterizedTest(name = "all={0} {1}: parents {2}, {3} -> {4}")
  @MethodSource("twoParentRows")
  void aTwoParentEdgeFollowsTheTable(boolean all, Flags flags, Parent p1, Parent p2, DependencyCheck.Status expected) {
    Dependency d = new Dependency(List.of(P1, P2), all, flags.success, flags.failure);
    Map<TaskId, TaskState> states = Map.of(P1, p1.state, P2, p2.state);

    DependencyCheck.Evaluation e = DependencyCheck.evaluate(d, states::get);

    assertThat(e.status()).isEqualTo(expected);
    // An impossible edge with a cancelled parent names the first cancelled parent in edge order.
    Optional<TaskId> cancelledBy = Optional.empty();
    if (expected == DependencyCheck.Status.IMPOSSIBLE) {
      if (p1 == Parent.CANCELLED) {
        cancelledBy = Optional.of(P1);
      } else if (p2 == Parent.CANCELLED) {
        cancelledBy = Optional.of(P2);
      }
    }
    assertThat(e.cancelledBy()).isEqualTo(cancelledBy);
    checkReason(e, List.of(P1, P2));
  }

  private static void checkReason(DependencyCheck.Evaluation e, List<TaskId> parents) {
    if (e.status() == DependencyCheck.Status.IMPOSSIBLE) {
      assertThat(e.reason()).startsWith("needs ");
      assertThat(parents.stream().anyMatch(p -> e.reason().contains(p.value())))
          .as("reason '%s' names a parent", e.reason()).isTrue();
    } else {
      assertThat(e.reason()).isEmpty();
    }
  }

  @Test
  void everyNonTerminalStateCountsAsPending() {
    EnumSet<TaskState> open = EnumSet.noneOf(TaskState.class);
    for (TaskState s : TaskState.values()) {
      if (!s.isTerminal()) {
        open.add(s);
      }
    }
    assertThat(open).contains(TaskState.QUEUED, TaskState.READY, TaskState.RUNNING, TaskState.OUT_OF_MEMORY);
    for (TaskState s : open) {
      for (Flags flags : Flags.values()) {
        for (boolean all : new boolean[] {true, false}) {
          Dependency d = new Dependency(List.of(P1), all, flags.success, flags.failure);
          assertThat(DependencyCheck.evaluate(d, id -> s).status()).as("%s all=%s %s", s, all, flags)
              .isEqualTo(DependencyCheck.Status.PENDING);
        }
      }
    }
  }

  @Test
  void theReasonOfAnImpossibleEdgeSaysWhatWasNeededAndWhatHappenedToEachBlocker() {
    Dependency d = new Dependency(List.of(P1, P2), true, true, false);
    Map<TaskId, TaskState> states = Map.of(P1, TaskState.FAILED, P2, TaskState.CANCELLED);

    DependencyCheck.Evaluation e = DependencyCheck.evaluate(d, states::get);

    assertThat(e.reason()).isEqualTo("needs all of [p1, p2] succeeded, but p1 failed, p2 was cancelled");
  }

  @Test
  void theReasonOfAFailureOnlyEdgeNamesTheParentThatSucceeded() {
    Dependency d = new Dependency(List.of(P1), true, false, true);

    DependencyCheck.Evaluation e = DependencyCheck.evaluate(d, id -> TaskState.SUCCEEDED);

    assertThat(e.reason()).isEqualTo("needs p1 failed, but p1 succeeded");
  }

  @Test
  void anAnyEdgeOverThreeParentsIsImpossibleOnlyWhenTheLastOneFails() {
    Dependency d = new Dependency(List.of(P1, P2, TaskId.of("p3")), false, true, false);
    Map<String, TaskState> states = new java.util.HashMap<>(Map.of(
        "p1", TaskState.FAILED, "p2", TaskState.TIMED_OUT, "p3", TaskState.RUNNING));

    assertThat(DependencyCheck.evaluate(d, id -> states.get(id.value())).status()).isEqualTo(DependencyCheck.Status.PENDING);
    states.put("p3", TaskState.UNREACHABLE);
    assertThat(DependencyCheck.evaluate(d, id -> states.get(id.value())).status()).isEqualTo(DependencyCheck.Status.IMPOSSIBLE);
    states.put("p3", TaskState.SUCCEEDED);
    assertThat(DependencyCheck.evaluate(d, id -> states.get(id.value())).status()).isEqualTo(DependencyCheck.Status.MET);
  }

  @Test
  void anEdgeThatNeitherSuccessNorFailureSatisfiesIsRejected() {
    assertThatThrownBy(() -> new Dependency(List.of(P1), true, false, false))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("can never be met");
  }

  @Test
  void anEdgeWithoutTasksIsRejected() {
    assertThatThrownBy(() -> new Dependency(List.of(), true, true, false))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one task");
  }

  @Test
  void describeSaysWhichTasksAndHow() {
    assertThat(Dependency.allSucceeded(List.of(P1)).describe()).isEqualTo("p1 succeeded");
    assertThat(new Dependency(List.of(P1, P2), true, true, false).describe()).isEqualTo("all of [p1, p2] succeeded");
    assertThat(new Dependency(List.of(P1, P2), false, false, true).describe()).isEqualTo("any of [p1, p2] failed");
    assertThat(new Dependency(List.of(P1), true, true, true).describe()).isEqualTo("p1 ended");
  }
}

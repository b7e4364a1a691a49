package dev.berth.core.lifecycle;

import static dev.berth.core.lifecycle.TaskState.AVAILABLE;
import static dev.berth.core.lifecycle.TaskState.CANCELLED;
import static dev.berth.core.lifecycle.TaskState.FAILED;
import static dev.berth.core.lifecycle.TaskState.INTERRUPTED;
import static dev.berth.core.lifecycle.TaskState.SUCCEEDED;
import static dev.berth.core.lifecycle.TaskState.TRAINED;
import static dev.berth.core.lifecycle.TaskState.READY;
import static dev.berth.core.lifecycle.TaskState.OUT_OF_MEMORY;
import static dev.berth.core.lifecycle.TaskState.LOADING;
import static dev.berth.core.lifecycle.TaskState.QUEUED;
import static dev.berth.core.lifecycle.TaskState.RUNNING;
import static dev.berth.core.lifecycle.TaskState.TIMED_OUT;
import static dev.berth.core.lifecycle.TaskState.TRAINING;
import static dev.berth.core.lifecycle.TaskState.UNREACHABLE;
import static dev.berth.core.lifecycle.TaskState.LOADED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.TaskId;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The transition table stated a second time, independently of the source, so that a change to
 * either one is noticed.
 */
class TaskTransitionsTest {

  private static final TaskId TASK = TaskId.of("t1");

  private static final Map<TaskState, Set<TaskState>> EXPECTED = expected();

  private static Map<TaskState, Set<TaskState>> expected() {
    Map<TaskState, Set<TaskState>> t = new EnumMap<>(TaskState.class);
    t.put(QUEUED, EnumSet.of(READY, CANCELLED, TIMED_OUT, UNREACHABLE));
    t.put(READY, EnumSet.of(RUNNING, AVAILABLE, FAILED, CANCELLED, TIMED_OUT, UNREACHABLE));
    t.put(AVAILABLE, EnumSet.of(LOADING, OUT_OF_MEMORY, READY, FAILED, CANCELLED, TIMED_OUT, INTERRUPTED));
    t.put(LOADING, EnumSet.of(LOADED, OUT_OF_MEMORY, READY, FAILED, CANCELLED, TIMED_OUT, INTERRUPTED));
    t.put(LOADED, EnumSet.of(TRAINING, READY, FAILED, CANCELLED, TIMED_OUT, INTERRUPTED));
    t.put(TRAINING, EnumSet.of(TRAINED, OUT_OF_MEMORY, READY, FAILED, CANCELLED, TIMED_OUT, INTERRUPTED));
    t.put(RUNNING, EnumSet.of(SUCCEEDED, OUT_OF_MEMORY, READY, FAILED, CANCELLED, TIMED_OUT, INTERRUPTED));
    t.put(TRAINED, EnumSet.of(SUCCEEDED, FAILED, CANCELLED, TIMED_OUT));
    t.put(OUT_OF_MEMORY, EnumSet.of(READY, LOADED, FAILED, CANCELLED, TIMED_OUT, INTERRUPTED));
    t.put(INTERRUPTED, EnumSet.of(READY, CANCELLED));
    t.put(SUCCEEDED, EnumSet.noneOf(TaskState.class));
    t.put(FAILED, EnumSet.of(QUEUED));
    t.put(CANCELLED, EnumSet.of(QUEUED));
    t.put(TIMED_OUT, EnumSet.of(QUEUED));
    t.put(UNREACHABLE, EnumSet.of(QUEUED));
    return t;
  }

  @Test
  void theExpectedTableCoversEveryState() {
    assertThat(EXPECTED.keySet()).containsExactlyInAnyOrder(TaskState.values());
  }

  @Test
  void isLegalMatchesTheTableForEveryPairOfStates() {
    int checked = 0;
    for (TaskState from : TaskState.values()) {
      for (TaskState to : TaskState.values()) {
        boolean legal = EXPECTED.get(from).contains(to);
        assertThat(TaskTransitions.isLegal(from, to))
            .as("%s -> %s should be %s", from, to, legal ? "legal" : "illegal")
            .isEqualTo(legal);
        checked++;
      }
    }
    int n = TaskState.values().length;
    assertThat(checked).as("every one of the %d x %d pairs is checked", n, n).isEqualTo(n * n);
  }

  @Test
  void checkThrowsExactlyForTheIllegalPairsNamingBothStates() {
    int thrown = 0;
    for (TaskState from : TaskState.values()) {
      for (TaskState to : TaskState.values()) {
        if (EXPECTED.get(from).contains(to)) {
          assertThatCode(() -> TaskTransitions.check(TASK, from, to))
              .as("%s -> %s is legal", from, to)
              .doesNotThrowAnyException();
        } else {
          assertThatThrownBy(() -> TaskTransitions.check(TASK, from, to))
              .as("%s -> %s is illegal", from, to)
              .isInstanceOfSatisfying(IllegalTransitionException.class, e -> {
                assertThat(e.task()).isEqualTo(TASK);
                assertThat(e.from()).isEqualTo(from);
                assertThat(e.to()).isEqualTo(to);
              })
              .hasMessageContaining("from " + from)
              .hasMessageContaining("to " + to)
              .hasMessageContaining("t1");
          thrown++;
        }
      }
    }
    int legalCount = EXPECTED.values().stream().mapToInt(Set::size).sum();
    int n = TaskState.values().length;
    assertThat(thrown)
        .as("%d pairs minus %d legal moves must throw", n * n, legalCount)
        .isEqualTo(n * n - legalCount);
  }

  @Test
  void anIllegalTransitionIsAnIllegalStateExceptionThatListsTheLegalNextStates() {
    assertThatThrownBy(() -> TaskTransitions.check(TASK, TRAINED, RUNNING))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("SUCCEEDED")
        .hasMessageContaining("FAILED");
  }

  @ParameterizedTest
  @EnumSource(TaskState.class)
  void nextIsTheRowOfTheTable(TaskState from) {
    assertThat(TaskTransitions.next(from)).containsExactlyInAnyOrderElementsOf(EXPECTED.get(from));
  }

  @ParameterizedTest
  @EnumSource(TaskState.class)
  void nextCannotBeModified(TaskState from) {
    Set<TaskState> next = TaskTransitions.next(from);
    assertThatThrownBy(() -> next.add(SUCCEEDED)).isInstanceOf(UnsupportedOperationException.class);
  }

  @ParameterizedTest
  @EnumSource(value = TaskState.class, names = {"FAILED", "CANCELLED", "TIMED_OUT", "UNREACHABLE"})
  void anEndingOtherThanSuccessLeadsOnlyBackToQueuedByARetry(TaskState terminal) {
    assertThat(terminal.isTerminal()).isTrue();
    assertThat(TaskTransitions.next(terminal)).as("exits of %s", terminal).containsExactly(QUEUED);
  }

  @Test
  void successIsFinal() {
    assertThat(TaskTransitions.next(SUCCEEDED)).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(value = TaskState.class, names = {"AVAILABLE", "LOADING", "LOADED", "TRAINING", "RUNNING", "OUT_OF_MEMORY"})
  void everyStateWithAnAttemptUnderWayCanBeInterruptedButAFinishedTrainStageCannot(TaskState s) {
    assertThat(TaskTransitions.isLegal(s, INTERRUPTED)).isTrue();
    assertThat(TaskTransitions.isLegal(TRAINED, INTERRUPTED)).isFalse();
  }

  @Test
  void anInterruptedTaskHasNoProcessIsNotEndedAndOnlyStartsAgainOrIsCancelled() {
    assertThat(INTERRUPTED.hasProcess()).isFalse();
    assertThat(INTERRUPTED.isTerminal()).isFalse();
    assertThat(TaskTransitions.next(INTERRUPTED)).containsExactlyInAnyOrder(READY, CANCELLED);
  }

  @Test
  void exactlyTheFiveEndStatesAreTerminal() {
    assertThat(EnumSet.allOf(TaskState.class).stream().filter(TaskState::isTerminal))
        .containsExactlyInAnyOrder(SUCCEEDED, FAILED, CANCELLED, TIMED_OUT, UNREACHABLE);
  }

  @ParameterizedTest
  @EnumSource(TaskState.class)
  void everyNonTerminalStateCanReachATerminalState(TaskState start) {
    if (start.isTerminal()) {
      return;
    }
    Set<TaskState> seen = EnumSet.of(start);
    Deque<TaskState> todo = new ArrayDeque<>(Set.of(start));
    while (!todo.isEmpty()) {
      for (TaskState next : TaskTransitions.next(todo.pop())) {
        if (seen.add(next)) {
          todo.push(next);
        }
      }
    }
    assertThat(seen).as("states reachable from %s", start).anyMatch(TaskState::isTerminal);
  }

  @ParameterizedTest
  @EnumSource(TaskState.class)
  void everyStateIsReachableFromQueued(TaskState target) {
    Set<TaskState> seen = EnumSet.of(QUEUED);
    Deque<TaskState> todo = new ArrayDeque<>(Set.of(QUEUED));
    while (!todo.isEmpty()) {
      for (TaskState next : TaskTransitions.next(todo.pop())) {
        if (seen.add(next)) {
          todo.push(next);
        }
      }
    }
    assertThat(seen).as("states reachable from QUEUED").contains(target);
  }

  @ParameterizedTest
  @EnumSource(TaskState.class)
  void everyNonTerminalStateCanBeCancelledOrFailedAndNoStateLoopsToItself(TaskState from) {
    assertThat(TaskTransitions.isLegal(from, from)).as("%s -> %s", from, from).isFalse();
    if (!from.isTerminal()) {
      assertThat(TaskTransitions.next(from))
          .as("a live task in %s must have a way to end", from)
          .containsAnyOf(CANCELLED, FAILED, SUCCEEDED);
    }
  }

  @Test
  void onlyARetryOfAnEndingOtherThanSuccessGoesBackToQueued() {
    for (TaskState from : TaskState.values()) {
      boolean reopens = from.isTerminal() && from != SUCCEEDED;
      assertThat(TaskTransitions.isLegal(from, QUEUED)).as("%s -> QUEUED", from).isEqualTo(reopens);
    }
  }

  @ParameterizedTest
  @EnumSource(TaskState.class)
  void aProcessExistsExactlyInTheStatesBetweenLaunchAndEnd(TaskState s) {
    Set<TaskState> withProcess = EnumSet.of(AVAILABLE, LOADING, LOADED, TRAINING, RUNNING, TRAINED, OUT_OF_MEMORY);
    assertThat(s.hasProcess()).as("%s has a process", s).isEqualTo(withProcess.contains(s));
  }
}

package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.TaskId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Evaluates a {@link Dependency} against the current states of the tasks it names. Pure.
 *
 * <p>A task that succeeded ({@code SUCCEEDED}) satisfies an edge with {@code success}; one that failed
 * ({@code FAILED}, {@code TIMED_OUT} or {@code UNREACHABLE}) satisfies an edge with {@code failure};
 * a cancelled task satisfies nothing. An edge is met when all (or any) of its tasks satisfy it, and
 * can never be met once too many of them ended without satisfying it.
 */
public final class DependencyCheck {

  private DependencyCheck() {}

  /** Where an edge stands. */
  public enum Status {
    /** The condition holds. */
    MET,
    /** Some tasks have not ended yet. */
    PENDING,
    /** The condition can never hold. */
    IMPOSSIBLE
  }

  /**
   * The outcome of evaluating one edge.
   *
   * @param status where it stands
   * @param cancelledBy when impossible because a task it needs was cancelled, that task
   * @param reason for an impossible edge, why, for people
   */
  public record Evaluation(Status status, Optional<TaskId> cancelledBy, String reason) {}

  /** Evaluates {@code dependency} with {@code stateOf} giving each named task's current state. */
  public static Evaluation evaluate(Dependency dependency, Function<TaskId, TaskState> stateOf) {
    int satisfied = 0;
    int impossible = 0;
    List<String> blockers = new ArrayList<>();
    Optional<TaskId> cancelled = Optional.empty();
    for (TaskId parent : dependency.tasks()) {
      TaskState s = stateOf.apply(parent);
      if (satisfies(dependency, s)) {
        satisfied++;
      } else if (s.isTerminal()) {
        impossible++;
        blockers.add(parent + " " + describe(s));
        if (s == TaskState.CANCELLED && cancelled.isEmpty()) {
          cancelled = Optional.of(parent);
        }
      }
    }
    Status status = status(dependency, satisfied, impossible);
    if (status == Status.IMPOSSIBLE) {
      return new Evaluation(
          Status.IMPOSSIBLE, cancelled, "needs " + dependency.describe() + ", but " + String.join(", ", blockers));
    }
    return new Evaluation(status, Optional.empty(), "");
  }

  /**
   * Where {@code dependency} stands when {@code satisfied} of its tasks satisfy it and {@code impossible}
   * others ended without satisfying it: what the scheduler's running counts give without walking
   * the tasks.
   */
  public static Status status(Dependency dependency, int satisfied, int impossible) {
    int n = dependency.tasks().size();
    boolean met = dependency.all() ? satisfied == n : satisfied > 0;
    if (met) {
      return Status.MET;
    }
    boolean never = dependency.all() ? impossible > 0 : impossible == n;
    return never ? Status.IMPOSSIBLE : Status.PENDING;
  }

  /** Whether a task in state {@code s} satisfies the edge. */
  public static boolean satisfies(Dependency dependency, TaskState s) {
    Ending e = Ending.of(s);
    return e == Ending.SUCCEEDED ? dependency.success() : e == Ending.FAILED && dependency.failure();
  }

  /** How a task stands for the edges that name it. */
  enum Ending {
    /** It has not ended. */
    NONE,
    /** It succeeded: it satisfies edges with {@code success}. */
    SUCCEEDED,
    /** It failed, timed out or became unreachable: it satisfies edges with {@code failure}. */
    FAILED,
    /** It ended otherwise (cancelled): it satisfies no edge. */
    OTHERWISE;

    static Ending of(TaskState s) {
      if (s == TaskState.SUCCEEDED) {
        return SUCCEEDED;
      }
      if (s == TaskState.FAILED || s == TaskState.TIMED_OUT || s == TaskState.UNREACHABLE) {
        return FAILED;
      }
      return s.isTerminal() ? OTHERWISE : NONE;
    }
  }

  private static String describe(TaskState s) {
    switch (s) {
      case SUCCEEDED:
        return "succeeded";
      case FAILED:
        return "failed";
      case TIMED_OUT:
        return "timed out";
      case UNREACHABLE:
        return "was unreachable";
      case CANCELLED:
        return "was cancelled";
      default:
        return "is " + s;
    }
  }
}

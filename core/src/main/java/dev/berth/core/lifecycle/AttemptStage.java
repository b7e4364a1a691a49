package dev.berth.core.lifecycle;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The stage a two-stage attempt is in, or ended in, folded from its events: {@link #LOAD} from its
 * launch until it is handed a device, and again once it waits for another device after running out
 * of GPU memory; {@link #TRAIN} from the train command on; the stage the task named when it
 * reported trouble. Which budget an attempt's death is charged to follows from it. One-stage
 * attempts have no stage.
 */
public final class AttemptStage {

  /** Starting up, loading, or loaded and waiting for a device. */
  public static final String LOAD = "LOAD";

  /** Training on the device Berth handed it. */
  public static final String TRAIN = "TRAIN";

  private AttemptStage() {}

  /**
   * The stage after these events of one attempt, oldest first and starting with its launch; empty
   * for a one-stage attempt.
   */
  public static Optional<String> after(List<TaskEvent> attemptEvents) {
    String stage = null;
    for (TaskEvent e : attemptEvents) {
      if (e instanceof TaskEvent.Launched l) {
        stage = l.twoStage() ? LOAD : null;
      } else if (stage == null) {
        continue;
      } else if (e instanceof TaskEvent.Trained) {
        stage = TRAIN;
      } else if (e instanceof TaskEvent.Staged s && s.target() == TaskState.LOADED) {
        stage = LOAD;
      } else if (e instanceof TaskEvent.Reported r) {
        stage = r.stage();
      }
    }
    return Optional.ofNullable(stage);
  }

  /** The stage of the task's current or last attempt; empty for a one-stage task or before any attempt. */
  public static Optional<String> current(TaskHistory history) {
    return history.attemptCount() == 0 ? Optional.empty() : after(eventsOf(history.events(), history.attemptCount()));
  }

  /** The stage each attempt is in or ended in, by attempt (the first at index 0). */
  public static List<Optional<String>> ofEach(TaskHistory history) {
    List<Optional<String>> stages = new ArrayList<>();
    for (int n = 1; n <= history.attemptCount(); n++) {
      stages.add(after(eventsOf(history.events(), n)));
    }
    return stages;
  }

  /**
   * Where each attempt ran, by attempt (the first at index 0): its launch placement, or for a
   * two-stage attempt that was handed a device, the placement of its last train call. A two-stage
   * attempt loads on the CPU, so its launch alone would say {@code cpu} for a task that trained on a GPU.
   */
  public static List<Placement> ranOn(TaskHistory history) {
    List<Placement> placements = new ArrayList<>();
    for (TaskEvent e : history.events()) {
      if (e instanceof TaskEvent.Launched l) {
        placements.add(l.placement());
      } else if (e instanceof TaskEvent.Trained t && !placements.isEmpty()) {
        placements.set(placements.size() - 1, t.placement());
      }
    }
    return placements;
  }

  /** How {@link #shownDevices} shows a two-stage attempt that has not been handed a device yet. */
  public static final String LOADING = "loading";

  /**
   * Where each attempt runs or ran, for people, by attempt: the device of {@link #ranOn}, or
   * {@value #LOADING} while a two-stage attempt runs and has not been handed a device yet. One that
   * ended before that is shown on the CPU it loaded on.
   */
  public static List<String> shownDevices(TaskHistory history) {
    List<String> shown = new ArrayList<>(ranOn(history).stream().map(Placement::device).toList());
    int current = shown.size();
    if (current > 0 && history.state().hasProcess()) {
      List<TaskEvent> events = eventsOf(history.events(), current);
      boolean twoStage = events.get(0) instanceof TaskEvent.Launched l && l.twoStage();
      if (twoStage && events.stream().noneMatch(TaskEvent.Trained.class::isInstance)) {
        shown.set(current - 1, LOADING);
      }
    }
    return shown;
  }

  /**
   * The events of attempt {@code number} (1-based): from its launch up to the next launch. Counted
   * by launches, not by time, because several attempts may share an instant.
   */
  public static List<TaskEvent> eventsOf(List<TaskEvent> events, int number) {
    int launches = 0;
    int from = -1;
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i) instanceof TaskEvent.Launched) {
        launches++;
        if (launches == number) {
          from = i;
        } else if (launches == number + 1) {
          return events.subList(from, i);
        }
      }
    }
    return from < 0 ? List.of() : events.subList(from, events.size());
  }
}

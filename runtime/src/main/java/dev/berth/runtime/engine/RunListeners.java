package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.report.RunReport;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import java.util.List;

/** Several listeners as one, called in order. */
public final class RunListeners implements RunListener {

  private final List<RunListener> listeners;

  private RunListeners(List<RunListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  /** The listeners as one. */
  public static RunListener of(RunListener... listeners) {
    return new RunListeners(List.of(listeners));
  }

  @Override
  public void runStarted(RunState state) {
    listeners.forEach(l -> l.runStarted(state));
  }

  @Override
  public void taskEvent(TaskRecord task, TaskEvent event) {
    listeners.forEach(l -> l.taskEvent(task, event));
  }

  @Override
  public void probed(HostSnapshot snapshot) {
    listeners.forEach(l -> l.probed(snapshot));
  }

  @Override
  public void decided(Decisions decisions) {
    listeners.forEach(l -> l.decided(decisions));
  }

  @Override
  public void runFinished(RunReport report) {
    listeners.forEach(l -> l.runFinished(report));
  }
}

package dev.berth.runtime.control.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.berth.core.model.TaskId;
import dev.berth.protocol.TaskMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Records what the control server reports, with the thread that reported it. */
final class Recorder implements ControlListener {

  sealed interface Event {}

  record Message(TaskId task, int attempt, TaskMessage message, Thread thread) implements Event {}

  record Disconnected(TaskId task, int attempt, Thread thread) implements Event {}

  record Broken(TaskId task, int attempt, String reason) implements Event {}

  record Problem(String description) implements Event {}

  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final List<Event> all = new ArrayList<>();

  @Override
  public void message(TaskId task, int attempt, TaskMessage message) {
    add(new Message(task, attempt, message, Thread.currentThread()));
  }

  @Override
  public void disconnected(TaskId task, int attempt) {
    add(new Disconnected(task, attempt, Thread.currentThread()));
  }

  @Override
  public void broken(TaskId task, int attempt, String reason) {
    add(new Broken(task, attempt, reason));
  }

  @Override
  public void problem(String description) {
    add(new Problem(description));
  }

  private synchronized void add(Event event) {
    all.add(event);
    events.add(event);
  }

  /** Every event so far. */
  synchronized List<Event> all() {
    return List.copyOf(all);
  }

  Event next() throws InterruptedException {
    Event e = events.poll(FakeTask.WAIT_SECONDS, TimeUnit.SECONDS);
    if (e == null) {
      fail("no event within %d s", FakeTask.WAIT_SECONDS);
    }
    return e;
  }

  /** The next event, which must be a message of {@code task}'s attempt; returns the message. */
  TaskMessage nextMessage(TaskId task, int attempt) throws InterruptedException {
    Event e = next();
    assertThat(e).isInstanceOf(Message.class);
    Message m = (Message) e;
    assertThat(m.task()).isEqualTo(task);
    assertThat(m.attempt()).isEqualTo(attempt);
    return m.message();
  }

  /** The next event, which must be a problem; returns its description. */
  String nextProblem() throws InterruptedException {
    Event e = next();
    assertThat(e).isInstanceOf(Problem.class);
    return ((Problem) e).description();
  }

  /** Waits until {@code thread} has finished, so that nothing more can come from it. */
  static void awaitEnd(Thread thread) throws InterruptedException {
    thread.join(TimeUnit.SECONDS.toMillis(FakeTask.WAIT_SECONDS));
    assertThat(thread.isAlive()).as("%s still running", thread.getName()).isFalse();
  }
}

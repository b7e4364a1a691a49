package dev.berth.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SystemTimersTest {

  private static final long WAIT_SECONDS = 20;

  private final CompletableFuture<Throwable> error = new CompletableFuture<>();
  private final SystemTimers timers = new SystemTimers(error::complete);

  @AfterEach
  void close() {
    timers.close();
  }

  @Test
  void runsAnActionAfterItsDelayOnTheTimerThread() throws Exception {
    CompletableFuture<Thread> ranOn = new CompletableFuture<>();
    long start = System.nanoTime();

    timers.schedule(Duration.ofMillis(50), () -> ranOn.complete(Thread.currentThread()));

    Thread thread = ranOn.get(WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
    assertThat(thread.getName()).isEqualTo("berth-timers");
    assertThat(thread.isDaemon()).isTrue();
  }

  @Test
  void timersMayHaveAThreadOfTheirOwnUnderAnotherName() throws Exception {
    CompletableFuture<String> ranOn = new CompletableFuture<>();
    try (SystemTimers own = new SystemTimers("berth-own-timers", error::complete)) {
      own.schedule(Duration.ZERO, () -> ranOn.complete(Thread.currentThread().getName()));

      assertThat(ranOn.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("berth-own-timers");
    }
  }

  @Test
  void aCancelledActionNeverRuns() throws Exception {
    List<String> ran = new CopyOnWriteArrayList<>();
    CountDownLatch later = new CountDownLatch(1);
    CountDownLatch gate = hold(timers);

    timers.schedule(Duration.ZERO, () -> ran.add("cancelled")).cancel();
    timers.schedule(Duration.ZERO, later::countDown); // due with or after the cancelled one: it would run first
    gate.countDown();

    assertThat(later.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(ran).isEmpty();
  }

  @Test
  void actionsRunInDueOrder() throws Exception {
    Duration gap = Duration.ofMillis(500);
    for (int attempt = 0; attempt < 10; attempt++) {
      List<String> ran = new CopyOnWriteArrayList<>();
      CountDownLatch both = new CountDownLatch(2);
      try (SystemTimers own = new SystemTimers(error::complete)) {
        CountDownLatch gate = hold(own);
        long start = System.nanoTime();
        own.schedule(gap, () -> { ran.add("late"); both.countDown(); });
        own.schedule(Duration.ZERO, () -> { ran.add("early"); both.countDown(); });
        long took = System.nanoTime() - start;
        gate.countDown();

        assertThat(both.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        if (took < gap.toNanos()) { // else the second was scheduled too late to be due first: try again
          assertThat(ran).containsExactly("early", "late");
          return;
        }
      }
    }
    throw new AssertionError("the test thread never scheduled two actions within " + gap);
  }

  /** Holds the timer thread of {@code on} in an action until the latch returned is counted down. */
  private static CountDownLatch hold(SystemTimers on) {
    CountDownLatch gate = new CountDownLatch(1);
    on.schedule(Duration.ZERO, () -> {
      try {
        gate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    return gate;
  }

  @Test
  void aFailingActionIsReportedAndTheTimerKeepsWorking() throws Exception {
    IllegalStateException boom = new IllegalStateException("boom");
    CountDownLatch after = new CountDownLatch(1);

    timers.schedule(Duration.ZERO, () -> {
      throw boom;
    });
    timers.schedule(Duration.ofMillis(50), after::countDown);

    assertThat(error.get(WAIT_SECONDS, TimeUnit.SECONDS)).isSameAs(boom);
    assertThat(after.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aNegativeDelayRunsAtOnce() throws Exception {
    CountDownLatch ran = new CountDownLatch(1);

    timers.schedule(Duration.ofSeconds(-5), ran::countDown);

    assertThat(ran.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void cancellingAnActionThatRanDoesNothing() throws Exception {
    CountDownLatch ran = new CountDownLatch(1);
    var handle = timers.schedule(Duration.ZERO, ran::countDown);
    assertThat(ran.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

    handle.cancel();

    assertThat(error).isNotDone();
  }

  @Test
  void closedTimersRefuseNewActions() {
    timers.close();

    assertThatThrownBy(() -> timers.schedule(Duration.ZERO, () -> {})).isInstanceOf(IllegalStateException.class);
  }
}

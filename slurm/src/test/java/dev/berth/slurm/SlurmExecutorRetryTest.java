package dev.berth.slurm;

import static dev.berth.slurm.Requests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.os.CommandRunner.Result;
import dev.berth.spi.Execution;
import dev.berth.spi.LaunchException;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.SignallingTimers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transient sbatch and scancel failures are tried again with growing waits on the fake clock, permanent ones not. */
class SlurmExecutorRetryTest {

  private static final Result UNREACHABLE = new Result(1, "",
      Recordings.read("sbatch-error-controller.txt"), false);

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final SignallingTimers timers = new SignallingTimers(clock);
  private final FakeSlurm slurm = new FakeSlurm();
  private SlurmExecutor executor = executor(Duration.ofMinutes(5));

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void anSbatchThatCannotReachTheControllerIsTriedAgainAfterOneThenTwoSeconds() throws Exception {
    slurm.failNext("sbatch", 2, UNREACHABLE);

    CompletableFuture<Execution> launch = launchInBackground("t");
    Duration first = timers.next();
    clock.advance(first);
    Duration second = timers.next();
    clock.advance(second);

    SlurmExecution job = (SlurmExecution) launch.get(Requests.WAIT, TimeUnit.SECONDS);
    assertThat(first).isEqualTo(Duration.ofSeconds(1));
    assertThat(second).isEqualTo(Duration.ofSeconds(2));
    assertThat(slurm.calls("sbatch")).hasSize(3);
    assertThat(job.jobId().value()).isEqualTo("100");
  }

  @Test
  void anSbatchStillUnreachableAfterRetryForFailsNamingTheErrorAndTheTries() throws Exception {
    executor.close();
    executor = executor(Duration.ofSeconds(10));
    slurm.failNext("sbatch", 100, UNREACHABLE);

    CompletableFuture<Execution> launch = launchInBackground("t");
    StringBuilder waits = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      Duration wait = timers.next();
      waits.append(wait.toSeconds()).append(' ');
      clock.advance(wait);
    }

    assertThatThrownBy(() -> launch.get(Requests.WAIT, TimeUnit.SECONDS))
        .hasCauseInstanceOf(LaunchException.class)
        .hasMessageContaining("Unable to contact slurm controller")
        .hasMessageContaining("tried 5 times over 10 s");
    assertThat(waits.toString()).isEqualTo("1 2 4 3 ");
  }

  @Test
  void aPermanentRefusalFailsAtOnceWithSlurmsMessage() {
    slurm.failNext("sbatch", 1, new Result(1, "", Recordings.read("sbatch-error-partition.txt"), false));

    assertThatThrownBy(() -> executor.launch(request(dir, "t", 1), new Exits()))
        .isInstanceOf(LaunchException.class)
        .hasMessageEndingWith("sbatch refused the job: invalid partition specified: nope; Batch job submission failed:"
            + " Invalid partition name specified");
    assertThat(slurm.calls("sbatch")).hasSize(1);
  }

  @Test
  void anSbatchThatTimedOutIsNotTriedAgainSinceItMayHaveSubmittedTheJob() {
    slurm.failNext("sbatch", 1, new Result(-1, "", "", true));

    assertThatThrownBy(() -> executor.launch(request(dir, "t", 1), new Exits()))
        .isInstanceOf(LaunchException.class)
        .hasMessageContaining("may or may not have been submitted");
    assertThat(slurm.calls("sbatch")).hasSize(1);
  }

  @Test
  void anScancelThatCannotReachTheControllerIsTriedAgainUntilTheJobIsCancelled() throws Exception {
    SlurmExecution job = (SlurmExecution) executor.launch(request(dir, "t", 1), new Exits());
    assertThat(timers.next()).as("the tracker's first round").isEqualTo(Duration.ofMillis(200));
    slurm.failNext("scancel", 1, new Result(8, "", Recordings.read("scancel-error-controller.txt"), false));
    CompletableFuture<Void> cancelled = slurm.whenCancelled(job.jobId());

    job.terminate(0);
    clock.advance(timers.next());

    cancelled.get(Requests.WAIT, TimeUnit.SECONDS);
    assertThat(slurm.calls("scancel")).hasSize(2);
  }

  @Test
  void closingTheExecutorEndsAWaitingRetryWithTheFailureSoFar() throws Exception {
    slurm.failNext("sbatch", 100, UNREACHABLE);
    CompletableFuture<Execution> launch = launchInBackground("t");
    timers.next();

    executor.close();

    assertThatThrownBy(() -> launch.get(Requests.WAIT, TimeUnit.SECONDS))
        .hasCauseInstanceOf(LaunchException.class).hasMessageContaining("Unable to contact slurm controller");
    assertThat(slurm.calls("sbatch")).hasSize(1);
  }

  private SlurmExecutor executor(Duration retryFor) {
    SlurmConfig config = SlurmConfig.builder().set(SlurmKeys.POLL_MAX, Duration.ofSeconds(5))
        .set(SlurmKeys.RETRY_FOR, retryFor).build();
    return new SlurmExecutor("run", config, Requests.FAST.withPollInitial(Duration.ofMillis(200)), slurm,
        id -> SlurmResources.DEFAULT, clock, timers);
  }

  private CompletableFuture<Execution> launchInBackground(String task) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return executor.launch(request(dir, task, 1), new Exits());
      } catch (LaunchException e) {
        throw new CompletionException(e);
      }
    });
  }
}

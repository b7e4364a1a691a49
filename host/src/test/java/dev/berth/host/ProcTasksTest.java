package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding a dead run's task processes in a made-up {@code /proc}. */
class ProcTasksTest {

  private static final long BERTH_START = 1_000;

  @TempDir Path proc;
  private long me;

  @BeforeEach
  void owner() throws IOException {
    me = ((Number) Files.getAttribute(proc, "unix:uid")).longValue(); // the made-up processes' owner
  }

  private Path process(long pid, char state, long start) throws IOException {
    return process(pid, state, 0, start);
  }

  private Path process(long pid, char state, long flags, long start) throws IOException {
    Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
    StringBuilder stat = new StringBuilder(pid + " (sleep) " + state);
    for (int field = 4; field <= 21; field++) {
      stat.append(' ').append(field == 9 ? flags : field);
    }
    Files.writeString(dir.resolve("stat"), stat.append(' ').append(start).append(" 0\n"));
    return dir;
  }

  private void task(long pid, char state, long start, String runDir) throws IOException {
    environment(pid, state, start, "PATH=/bin\0BERTH_RUN_DIR=" + runDir + "\0BERTH_TASK_ID=t-" + pid + "\0");
  }

  private void environment(long pid, char state, long start, String entries) throws IOException {
    Files.write(process(pid, state, start).resolve("environ"), entries.getBytes(StandardCharsets.UTF_8));
  }

  /** A process whose environment this looker may not read (here: not a file at all). */
  private void unreadable(long pid, long start) throws IOException {
    Files.createDirectories(process(pid, 'S', start).resolve("environ"));
  }

  @Test
  void aProcessWithTheRunsFolderInItsEnvironmentIsOneOfItsTasks() throws IOException {
    task(7, 'S', 2_000, "/runs/r2");
    task(8, 'S', 2_000, "/runs/r2-old");

    assertThat(new ProcTasks(proc).liveTasks("/runs/r2", me, BERTH_START)).containsExactly("t-7");
    assertThat(new ProcTasks(proc).liveTasks("/runs/r", me, BERTH_START)).as("the whole folder, not a prefix").isEmpty();
  }

  @Test
  void aZombieIsNoneOfItsTasksAndAProcessOlderThanTheRunsBerthThatNamesItsFolderIsOne() throws IOException {
    task(7, 'Z', 2_000, "/runs/r2");
    assertThat(new ProcTasks(proc).liveTasks("/runs/r2", me, BERTH_START)).isEmpty();

    task(8, 'S', 500, "/runs/r2"); // a task the run's resume adopted, started by the Berth before it
    assertThat(new ProcTasks(proc).liveTasks("/runs/r2", me, BERTH_START)).containsExactly("t-8");
  }

  @Test
  void aKernelThreadStartedAfterTheRunsBerthIsNoneOfItsTasksThoughItsEnvironmentCannotBeRead() throws IOException {
    // Kernel threads (kworkers) belong to root, start all the time, and refuse to show an environment.
    Files.createDirectories(process(9, 'I', 0x00200040, 2_000).resolve("environ"));

    assertThat(new ProcTasks(proc).liveTasks("/runs/a", me, BERTH_START)).isEmpty();
  }

  @Test
  void aProcessOfTheRunsUserWhoseEnvironmentCannotBeReadMayBeATaskAndKeepsTheHolds() throws IOException {
    unreadable(7, 2_000);

    assertThat(new ProcTasks(proc).liveTasks("/runs/r2", me, BERTH_START)).containsExactly(TaskProcesses.UNKNOWN);
    assertThat(new ProcTasks(proc).liveTasks("/runs/r2", me + 1, BERTH_START)).as("another user's").isEmpty();
    assertThat(new ProcTasks(proc).liveTasks("/runs/r2", me, 3_000)).as("started before the run").isEmpty();
  }

  @Test
  void eachLiveProcessNamesItsTaskAndAWarmPoolsEngineMayServeAny() throws IOException {
    task(7, 'S', 2_000, "/runs/r2");
    task(8, 'S', 2_000, "/runs/r2");
    assertThat(new ProcTasks(proc).liveTasks("/runs/r2", me, BERTH_START)).containsExactly("t-7", "t-8");

    environment(9, 'S', 2_000, "BERTH_RUN_DIR=/runs/r2\0BERTH_TASK_ID=t-9\0BERTH_ENGINE=p-1\0");
    assertThat(new ProcTasks(proc).liveTasks("/runs/r2", me, BERTH_START)).contains(TaskProcesses.UNKNOWN);
  }
}

package dev.berth.runtime.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.TaskId;
import dev.berth.spi.Execution;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An attempt of a run starts under its supervisor, which marks the command's exit in the run's
 * exit marks even when no Berth is left to see it, and is otherwise invisible: the arguments reach
 * the command unchanged, its exit code is the one reported, and a signal Berth sends reaches it.
 */
class SupervisedAttemptTest {

  @TempDir Path dir;

  private final LocalProcessExecutor executor = new LocalProcessExecutor();

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void anAttemptsExitIsMarkedByItsSupervisorWhenNoBerthIsLeftToSeeIt() throws Exception {
    Path go = dir.resolve("go.fifo");
    Process mkfifo = new ProcessBuilder("mkfifo", go.toString()).inheritIO().start();
    assertThat(mkfifo.waitFor(Exits.WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    LaunchRequest request = request("orphan", 2, List.of("sh", "-c", "read x < \"$0\"; exit 3", go.toString()));
    Execution execution = executor.launch(request, new Exits());
    ProcessHandle process = ProcessHandle.of(execution.pid()).orElseThrow();

    executor.close(); // Berth is gone: nothing of its own waits for the exit any more
    Files.writeString(go, "go\n"); // opening waits for the command to read
    process.onExit().get(Exits.WAIT_SECONDS, TimeUnit.SECONDS);

    assertThat(marks()).containsExactly("2\t3\t" + request.workdir().toAbsolutePath());
  }

  @Test
  void theCommandGetsItsArgumentsUnchangedAndItsProgramRatherThanAShellBuiltin() throws Exception {
    Exits exits = new Exits();
    LaunchRequest request = request("args", 1,
        List.of("printf", "%s|", "a b", "", "$HOME", "it's", "*", "-n", "a\\nb", "\"q\""));
    executor.launch(request, exits);
    assertThat(exits.await()).isZero();
    assertThat(Files.readString(request.stdout())).isEqualTo("a b||$HOME|it's|*|-n|a\\nb|\"q\"|");

    Exits echoed = new Exits();
    LaunchRequest echo = request("echo", 1, List.of("echo", "a\\nb"));
    executor.launch(echo, echoed);
    assertThat(echoed.await()).isZero();
    assertThat(Files.readString(echo.stdout())).as("the program's echo, not dash's").isEqualTo("a\\nb\n");
  }

  @Test
  void theExitCodeReportedAndMarkedIsTheCommandsOwnAlsoWhenASignalEndedIt() throws Exception {
    Exits failed = new Exits();
    executor.launch(request("failed", 1, List.of("sh", "-c", "exit 42")), failed);
    Exits killed = new Exits();
    executor.launch(request("killed", 1, List.of("sh", "-c", "kill -9 $$")), killed);

    assertThat(failed.await()).isEqualTo(42);
    assertThat(killed.await()).isEqualTo(137);
    assertThat(marks()).contains("1\t42\t" + dir.resolve("work/failed"), "1\t137\t" + dir.resolve("work/killed"));
  }

  @Test
  void aCommandEndedByASignalFindsNoWordOfItsSupervisorInItsStderr() throws Exception {
    // A shell reports a job a signal ended ("Terminated", "Killed") on its own stderr, which the task's log is.
    Exits terminated = new Exits();
    LaunchRequest term = request("terminated", 1, List.of("sh", "-c", "echo own >&2; kill -TERM $$"));
    executor.launch(term, terminated);
    Exits killed = new Exits();
    LaunchRequest kill = request("killed", 1, List.of("sh", "-c", "kill -KILL $$"));
    executor.launch(kill, killed);

    assertThat(terminated.await()).isEqualTo(143);
    assertThat(killed.await()).isEqualTo(137);
    assertThat(Files.readString(term.stderr())).isEqualTo("own\n");
    assertThat(Files.readString(kill.stderr())).isEmpty();
  }

  @Test
  void aTerminationReachesTheCommandWhichEndsAsItChooses() throws Exception {
    Fifo fifo = Fifo.open(dir.resolve("trap.fifo"));
    Exits exits = new Exits();
    Execution execution = executor.launch(request("trap", 1, List.of("sh", "-c",
        "trap 'exit 7' TERM; echo ready > \"$0\"; while :; do sleep 0.05; done", fifo.path().toString())), exits);
    assertThat(fifo.firstLine()).isEqualTo("ready");

    execution.terminate(20_000);

    assertThat(exits.await()).as("the command's own ending, not the supervisor's").isEqualTo(7);
    assertThat(marks()).containsExactly("1\t7\t" + dir.resolve("work/trap"));
  }

  @Test
  void aMissingProgramStillFailsTheLaunch() {
    assertThatThrownBy(() -> executor.launch(request("missing", 1, List.of("no-such-program-berth")), new Exits()))
        .isInstanceOf(LaunchException.class)
        .hasMessageContaining("No such file or directory");
  }

  @Test
  void aSupervisorIsToldFromTheProcessesOfItsCommand() throws Exception {
    Fifo fifo = Fifo.open(dir.resolve("tell.fifo"));
    Exits exits = new Exits();
    Execution execution = executor.launch(request("tell", 1, List.of("sh", "-c",
        "echo ready > \"$0\"; sleep 1000", fifo.path().toString())), exits);
    assertThat(fifo.firstLine()).isEqualTo("ready");

    ProcessHandle supervisor = ProcessHandle.of(execution.pid()).orElseThrow();
    assertThat(Supervision.isSupervisor(cmdline(supervisor.pid()))).isTrue();
    assertThat(supervisor.descendants().map(p -> cmdline(p.pid()))).isNotEmpty().noneMatch(Supervision::isSupervisor);
    execution.terminate(0);
    exits.await();
  }

  private List<String> marks() throws Exception {
    Path file = dir.resolve("run").resolve(Supervision.MARKS_FILE);
    return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
  }

  private static List<String> cmdline(long pid) {
    try {
      return List.of(new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
          StandardCharsets.UTF_8).split("\0"));
    } catch (java.io.IOException e) {
      return List.of();
    }
  }

  private LaunchRequest request(String task, int attempt, List<String> command) throws java.io.IOException {
    Files.createDirectories(dir.resolve("run"));
    TreeMap<String, String> env = new TreeMap<>();
    env.put("BERTH_RUN_DIR", dir.resolve("run").toString());
    env.put("BERTH_TASK_ID", task);
    env.put("BERTH_ATTEMPT", Integer.toString(attempt));
    return new LaunchRequest(TaskId.of(task), attempt, command, env, dir.resolve("work").resolve(task),
        dir.resolve("logs").resolve(task + ".out"), dir.resolve("logs").resolve(task + ".err"));
  }
}

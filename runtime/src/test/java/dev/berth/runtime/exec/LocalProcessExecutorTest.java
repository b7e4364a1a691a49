package dev.berth.runtime.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.TaskId;
import dev.berth.spi.Execution;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalProcessExecutorTest {

  private static final long LONG_GRACE = 20_000;

  @TempDir Path dir;

  private final LocalProcessExecutor executor = new LocalProcessExecutor();

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void terminateKillsTheWholeProcessTree() throws Exception {
    Fifo fifo = Fifo.open(dir.resolve("tree.fifo"));
    // Every process of the tree holds the pipe open, so its end of file means the tree is gone.
    Path script = script("tree.sh", """
        exec 3>"$1"
        sh -c 'sleep 1000 & echo ready >&3; wait' &
        wait
        """);
    Exits exits = new Exits();
    Execution execution = executor.launch(request("tree", List.of("sh", script.toString(), fifo.path().toString())), exits);
    assertThat(fifo.firstLine()).isEqualTo("ready");
    List<ProcessHandle> descendants = ProcessHandle.of(execution.pid()).orElseThrow().descendants().toList();
    assertThat(descendants).as("child shell and grandchild").hasSizeGreaterThanOrEqualTo(2);

    execution.terminate(LONG_GRACE);

    assertThat(exits.await()).isEqualTo(143);
    fifo.awaitAllWritersGone();
    assertThat(descendants).allMatch(LocalProcessExecutorTest::endsSoon);
  }

  @Test
  void aProcessIgnoringTheTerminationSignalIsKilledAfterTheGracePeriod() throws Exception {
    Fifo fifo = Fifo.open(dir.resolve("stubborn.fifo"));
    Path script = script("stubborn.sh", """
        trap '' TERM
        echo ready > "$1"
        sleep 1000
        """);
    Exits exits = new Exits();
    Execution execution =
        executor.launch(request("stubborn", List.of("sh", script.toString(), fifo.path().toString())), exits);
    assertThat(fifo.firstLine()).isEqualTo("ready");

    execution.terminate(200);

    assertThat(exits.await()).as("killed by SIGKILL").isEqualTo(137);
  }

  @Test
  void aZeroGraceKillsAtOnce() throws Exception {
    Exits exits = new Exits();
    Execution execution = executor.launch(request("hasty", List.of("sleep", "1000")), exits);

    execution.terminate(0);

    assertThat(exits.await()).isEqualTo(137);
  }

  @Test
  void aProcessKilledFromOutsideReports137() throws Exception {
    Exits exits = new Exits();
    Execution execution = executor.launch(request("victim", List.of("sleep", "1000")), exits);

    ProcessHandle.of(execution.pid()).orElseThrow().destroyForcibly();

    assertThat(exits.await()).isEqualTo(137);
    assertThat(exits.count()).isEqualTo(1);
  }

  @Test
  void outputOfTwoAttemptsIsAppendedToTheSameFiles() throws Exception {
    List<String> hello = List.of("sh", "-c", "echo hello; echo err >&2");
    LaunchRequest first = request("twice", hello);
    LaunchRequest second =
        new LaunchRequest(first.task(), 2, hello, first.env(), first.workdir(), first.stdout(), first.stderr());

    for (LaunchRequest attempt : List.of(first, second)) {
      Exits exits = new Exits();
      executor.launch(attempt, exits);
      assertThat(exits.await()).isZero();
    }

    assertThat(Files.readString(first.stdout())).isEqualTo("hello\nhello\n");
    assertThat(Files.readString(first.stderr())).isEqualTo("err\nerr\n");
  }

  @Test
  void theInheritedEnvironmentIsKept() throws Exception {
    LaunchRequest request = new LaunchRequest(
        TaskId.of("env"), 1, List.of("sh", "-c", "echo \"$PATH|$BERTH_EXTRA\""),
        new TreeMap<>(Map.of("BERTH_EXTRA", "x")), dir.resolve("env"), dir.resolve("env.out"), dir.resolve("env.err"));
    Exits exits = new Exits();
    executor.launch(request, exits);

    assertThat(exits.await()).isZero();
    assertThat(Files.readString(request.stdout())).isEqualTo(System.getenv("PATH") + "|x\n");
  }

  @Test
  void variablesHoldingBerthsSecretsAreNotInheritedUnlessTheTaskSetsThemItself() throws Exception {
    // HOME stands for a variable such as the one smtp.password-env names: set in Berth's environment.
    LocalProcessExecutor withholding = new LocalProcessExecutor(Set.of("HOME", "PATH"));
    LaunchRequest request = new LaunchRequest(
        TaskId.of("secret"), 1, List.of("/bin/sh", "-c", "echo \"${HOME-withheld}|${PATH-withheld}\""),
        new TreeMap<>(Map.of("PATH", "/bin")), dir.resolve("s"), dir.resolve("s.out"), dir.resolve("s.err"));
    Exits exits = new Exits();
    try {
      withholding.launch(request, exits);
      assertThat(exits.await()).isZero();
    } finally {
      withholding.close();
    }

    assertThat(System.getenv("HOME")).isNotNull();
    assertThat(Files.readString(request.stdout())).isEqualTo("withheld|/bin\n");
  }

  @Test
  void theCommandIsNotRunThroughAShell() throws Exception {
    LaunchRequest request = request("literal", List.of("echo", "$HOME", "a;b", "*"));
    Exits exits = new Exits();
    executor.launch(request, exits);

    assertThat(exits.await()).isZero();
    assertThat(Files.readString(request.stdout())).isEqualTo("$HOME a;b *\n");
  }

  @Test
  void standardInputIsEmpty() throws Exception {
    LaunchRequest request = request("reader", List.of("cat"));
    Exits exits = new Exits();
    executor.launch(request, exits);

    assertThat(exits.await()).isZero();
    assertThat(Files.readString(request.stdout())).isEmpty();
  }

  @Test
  void exitsAreReportedOnTheExecutorsOwnThreads() throws Exception {
    Exits exits = new Exits();
    executor.launch(request("threads", List.of("true")), exits);

    exits.await();
    assertThat(exits.threadName()).startsWith("berth-exit-");
  }

  @Test
  void aWorkingDirectoryThatCannotBeCreatedFailsTheLaunch() throws Exception {
    Path file = Files.writeString(dir.resolve("in-the-way"), "");
    LaunchRequest request = new LaunchRequest(
        TaskId.of("blocked"), 1, List.of("true"), new TreeMap<>(), file.resolve("work"),
        dir.resolve("blocked.out"), dir.resolve("blocked.err"));
    Exits exits = new Exits();

    assertThatThrownBy(() -> executor.launch(request, exits))
        .isInstanceOf(LaunchException.class)
        .hasMessageContaining("'true'")
        .hasMessageContaining("working directory");
    assertThat(exits.count()).isZero();
  }

  @Test
  void aMissingProgramIsNamedWithTheCause() {
    LaunchRequest request = request("missing", List.of("berth-surely-missing", "arg"));

    assertThatThrownBy(() -> executor.launch(request, new Exits()))
        .isInstanceOf(LaunchException.class)
        .hasMessageContaining("berth-surely-missing")
        .hasMessageContaining("No such file")
        .hasCauseInstanceOf(IOException.class);
  }

  @Test
  void aTaskLeadsASessionOfItsOwnSoTerminalSignalsReachBerthAlone() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "setsid is not installed");
    Exits exits = new Exits();
    var execution = executor.launch(request("session", List.of("sh", "-c", "echo $$ > pid; cut -d' ' -f6 /proc/$$/stat > sid")), exits);
    assertThat(exits.await()).isZero();

    long pid = Long.parseLong(Files.readString(dir.resolve("work/session/pid")).strip());
    long sid = Long.parseLong(Files.readString(dir.resolve("work/session/sid")).strip());
    assertThat(pid).as("setsid execs in place: the task keeps its pid").isEqualTo(execution.pid());
    assertThat(sid).as("the task leads its own session").isEqualTo(pid);
  }

  @Test
  void aClosedExecutorRefusesLaunches() {
    executor.close();

    assertThatThrownBy(() -> executor.launch(request("late", List.of("true")), new Exits()))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void closingStopsTheThreadsWaitingForRunningProcessesSoNoExitIsReportedAfterIt() throws Exception {
    Exits exits = new Exits();
    Execution execution = executor.launch(request("long", List.of("sleep", "60")), exits);

    executor.close();

    try {
      assertThat(executor.awaitTermination(TimeUnit.SECONDS.toMillis(Exits.WAIT_SECONDS)))
          .as("no exit thread is left to report the process's exit").isTrue();
      assertThat(execution.isAlive()).as("a process nobody terminated is not touched").isTrue();
    } finally {
      execution.terminate(0);
    }
    assertThat(exits.count()).isZero();
  }

  private Path script(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private LaunchRequest request(String task, List<String> command) {
    return new LaunchRequest(
        TaskId.of(task), 1, command, new TreeMap<>(), dir.resolve("work").resolve(task),
        dir.resolve("logs").resolve(task + ".out"), dir.resolve("logs").resolve(task + ".err"));
  }

  /**
   * Whether the process ends within the test's wait. A dying process closes its files before the
   * kernel marks it ended, so the pipe's end of file can come a moment before {@link #ended} holds.
   */
  private static boolean endsSoon(ProcessHandle process) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Exits.WAIT_SECONDS);
    while (!ended(process)) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      Thread.yield();
    }
    return true;
  }

  /**
   * Whether the process has ended. An orphan that no init process reaps stays a zombie, which
   * {@link ProcessHandle#isAlive()} still counts as alive.
   */
  private static boolean ended(ProcessHandle process) {
    if (!process.isAlive()) {
      return true;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException e) {
      return true;
    }
  }
}

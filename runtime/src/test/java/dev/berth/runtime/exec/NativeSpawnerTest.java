package dev.berth.runtime.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.core.model.TaskId;
import dev.berth.runtime.contain.TaskContainment;
import dev.berth.spi.Execution;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a task started by posix_spawn gets from Berth, and what it does not. */
class NativeSpawnerTest {

  @TempDir Path dir;

  private LocalProcessExecutor executor;

  @BeforeAll
  static void nativeSpawning() {
    assumeTrue(NativeSpawner.supported(), "posix_spawn with closefrom and pidfds (glibc 2.34, Linux 5.3)");
  }

  @BeforeEach
  void open() {
    executor = executor(Set.of());
  }

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void theTaskLeadsASessionOfItsOwnWithoutTheSetsidProgram() throws Exception {
    Execution execution = run("session", List.of("sh", "-c", "echo $$; cut -d' ' -f6 /proc/$$/stat"), 0);

    List<String> lines = Files.readAllLines(dir.resolve("logs/session.out"));
    assertThat(Long.parseLong(lines.get(0))).as("the task's pid").isEqualTo(execution.pid());
    assertThat(Long.parseLong(lines.get(1))).as("its session").isEqualTo(execution.pid());
  }

  @Test
  void noDescriptorOfBerthsReachesTheTask() throws Exception {
    // The shell reads the folder through a descriptor of its own, closed before the loop runs.
    run("fds", List.of("sh", "-c", "for f in /proc/$$/fd/*; do [ -e \"$f\" ] && echo \"${f##*/}\"; done; true"), 0);

    assertThat(Files.readAllLines(dir.resolve("logs/fds.out"))).containsExactly("0", "1", "2");
  }

  @Test
  void theTaskBlocksNoSignal() throws Exception {
    run("mask", List.of("grep", "SigBlk", "/proc/self/status"), 0);

    assertThat(Files.readString(dir.resolve("logs/mask.out"))).matches("SigBlk:\\s+0+\\n");
  }

  @Test
  void aMissingProgramFailsTheLaunchAsWithProcessBuilder() {
    LaunchRequest request = request("missing", List.of("berth-surely-missing", "arg"), Map.of());

    assertThatThrownBy(() -> executor.launch(request, new Exits()))
        .isInstanceOf(LaunchException.class)
        .hasMessage("cannot start 'berth-surely-missing' for task missing attempt 1: No such file or directory (or not executable)")
        .hasCauseInstanceOf(IOException.class);
  }

  @Test
  void aProgramIsLookedUpOnThePathTheTaskWillHave() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path tool = Files.writeString(bin.resolve("berth-own-tool"), "#!/bin/sh\necho own\n");
    assertThat(tool.toFile().setExecutable(true)).isTrue();
    Exits exits = new Exits();
    executor.launch(request("own", List.of("berth-own-tool"), Map.of("PATH", bin + ":/usr/bin:/bin")), exits);

    assertThat(exits.await()).isZero();
    assertThat(Files.readString(dir.resolve("logs/own.out"))).isEqualTo("own\n");
  }

  @Test
  void aScriptWithoutAnInterpreterLineIsRunByTheShellAsExecvpRunsIt() throws Exception {
    Path script = Files.writeString(dir.resolve("plain.sh"), "echo \"plain $1\"\n");
    assertThat(script.toFile().setExecutable(true)).isTrue();

    run("plain", List.of(script.toString(), "arg"), 0);

    assertThat(Files.readString(dir.resolve("logs/plain.out"))).isEqualTo("plain arg\n");
  }

  @Test
  void withheldVariablesAreAbsentUnlessTheTaskSetsThem() throws Exception {
    executor.close();
    executor = executor(Set.of("HOME", "PATH"));

    run("secret", List.of("/bin/sh", "-c", "echo \"${HOME-withheld}|${PATH-withheld}\""), Map.of("PATH", "/bin"), 0);

    assertThat(System.getenv("HOME")).isNotNull();
    assertThat(Files.readString(dir.resolve("logs/secret.out"))).isEqualTo("withheld|/bin\n");
  }

  @Test
  void aTaskEndedByASignalReports128PlusTheSignal() throws Exception {
    run("term", List.of("sh", "-c", "kill -TERM $$"), 143);
    run("kill", List.of("sh", "-c", "kill -KILL $$"), 137);
  }

  @Test
  void exitCodesArePassedOnUnchanged() throws Exception {
    run("exit", List.of("sh", "-c", "exit 255"), 255);
  }

  @Test
  void aProcessThatEndsAfterTheExecutorClosedIsStillReapedSoNoZombieStays() throws Exception {
    Exits exits = new Exits();
    Execution execution = executor.launch(request("late", List.of("sleep", "600"), Map.of()), exits);
    executor.close();
    assertThat(executor.awaitTermination(TimeUnit.SECONDS.toMillis(60))).isTrue();

    execution.terminate(0);

    Path proc = Path.of("/proc", Long.toString(execution.pid()));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (Files.exists(proc) && System.nanoTime() - deadline < 0) {
      Thread.onSpinWait(); // the reaper thread is woken by the kernel; nothing here to wait on
    }
    assertThat(proc).as("reaped, not left a zombie").doesNotExist();
    assertThat(execution.isAlive()).isFalse();
    assertThat(exits.count()).as("no exit reported after close").isZero();
  }

  private Execution run(String task, List<String> command, int expectedExit) throws Exception {
    return run(task, command, Map.of(), expectedExit);
  }

  private Execution run(String task, List<String> command, Map<String, String> env, int expectedExit) throws Exception {
    Exits exits = new Exits();
    Execution execution = executor.launch(request(task, command, env), exits);
    assertThat(exits.await()).isEqualTo(expectedExit);
    assertThat(execution.isAlive()).isFalse();
    return execution;
  }

  private LaunchRequest request(String task, List<String> command, Map<String, String> env) {
    return new LaunchRequest(TaskId.of(task), 1, command, new TreeMap<>(env), dir.resolve("work").resolve(task),
        dir.resolve("logs").resolve(task + ".out"), dir.resolve("logs").resolve(task + ".err"));
  }

  private static LocalProcessExecutor executor(Set<String> withheld) {
    return new LocalProcessExecutor(NativeSpawner.available().orElseThrow(), TaskContainment.detect(),
        Duration.ofSeconds(1), LocalSettings.DEFAULTS, withheld);
  }
}

package dev.berth.runtime.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.TaskId;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import oshi.SystemInfo;

/** Both ways of measuring process trees, on a real shell with a child. */
class RealTreeMemoryTest {

  private static final TaskId SHELL = TaskId.of("shell");
  private static final TaskId CHILD = TaskId.of("child");

  private Process shell;
  private long childPid;

  static Stream<TreeMemory> measures() {
    SystemInfo system = new SystemInfo();
    Path proc = Path.of("/proc");
    TreeMemory oshi = new OshiTreeMemory(system.getOperatingSystem());
    return ProcTreeMemory.usable(proc)
        ? Stream.of(new ProcTreeMemory(proc, system.getHardware().getMemory().getPageSize()), oshi)
        : Stream.of(oshi);
  }

  @BeforeEach
  void startShellWithChild() throws Exception {
    shell = new ProcessBuilder("sh", "-c", "sleep 30 & echo started; wait").start();
    BufferedReader out = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8));
    assertThat(CompletableFuture.supplyAsync(() -> readLine(out)).get(20, TimeUnit.SECONDS)).isEqualTo("started");
    childPid = shell.descendants().findFirst().orElseThrow().pid();
  }

  @AfterEach
  void stopShell() throws Exception {
    // The child first, so that the shell reaps it rather than leaving an orphan.
    shell.descendants().forEach(ProcessHandle::destroyForcibly);
    shell.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
  }

  @ParameterizedTest
  @MethodSource("measures")
  void theTreeOfAShellIncludesItsChild(TreeMemory memory) {
    SortedMap<TaskId, Long> pids = new TreeMap<>();
    pids.put(SHELL, shell.pid());
    pids.put(CHILD, childPid);

    SortedMap<TaskId, Long> measured = memory.measure(pids);

    assertThat(measured).containsOnlyKeys(SHELL, CHILD);
    assertThat(measured.get(CHILD)).isPositive();
    assertThat(measured.get(SHELL)).isGreaterThan(measured.get(CHILD));
  }

  private static String readLine(BufferedReader reader) {
    try {
      return reader.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

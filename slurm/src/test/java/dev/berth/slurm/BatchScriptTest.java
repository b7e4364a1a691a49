package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.TaskId;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scripts are run here with the local {@code sh}, as a node would run them, without Slurm. */
class BatchScriptTest {

  @TempDir Path dir;

  @Test
  void theScriptExportsTheVariablesRunsTheProgramAndKeepsItsExitCode() {
    LaunchRequest request = request("t", List.of("python3", "train.py", "--lr", "0.1"), Map.of("SEED", "1"));
    String exit = dir.resolve("t").resolve("berth-exit-code.1").toString();

    assertThat(BatchScript.forTask(request)).isEqualTo("#!/bin/sh\n"
        + "# Berth task t, attempt 1\n"
        + "export SEED='1'\n"
        + "rm -f '" + exit + "'\n"
        + "( exec 'python3' 'train.py' '--lr' '0.1' )\n"
        + "berth_code=$?\n"
        + "printf '%s\\n' \"$berth_code\" >'" + exit + ".tmp' && mv -f '" + exit + ".tmp' '" + exit + "'\n"
        + "exit \"$berth_code\"\n");
  }

  @Test
  void everyArgumentReachesTheProgramExactlyAsGiven() throws Exception {
    List<String> words = List.of("two words", "it's", "\"quoted\"", "$HOME", "back\\slash", "new\nline", "", "*",
        "`id`", "$(id)", "-n", "tab\there", "ünïcödé");
    List<String> command = new java.util.ArrayList<>(List.of("sh", "-c", "for a; do printf '<%s>\\n' \"$a\"; done", "sh"));
    command.addAll(words);
    LaunchRequest request = request("args", command, Map.of());

    assertThat(run(request, BatchScript.forTask(request), Map.of())).isZero();

    StringBuilder expected = new StringBuilder();
    words.forEach(w -> expected.append('<').append(w).append(">\n"));
    assertThat(Files.readString(request.stdout())).isEqualTo(expected.toString());
  }

  @Test
  void valuesWithCommasQuotesAndNewlinesAreExportedAsGiven() throws Exception {
    LaunchRequest request = request("env", List.of("sh", "-c", "printf '%s|%s|%s' \"$A\" \"$B\" \"$C\""),
        Map.of("A", "x,y=z", "B", "it's\n$PATH \\n", "C", ""));

    assertThat(run(request, BatchScript.forTask(request), Map.of())).isZero();

    assertThat(Files.readString(request.stdout())).isEqualTo("x,y=z|it's\n$PATH \\n|");
  }

  @Test
  void theExitCodeFileHoldsTheProgramsCodeAndNothingIsLeftBehind() throws Exception {
    LaunchRequest request = request("three", List.of("sh", "-c", "exit 3"), Map.of());

    assertThat(run(request, BatchScript.forTask(request), Map.of())).isEqualTo(3);

    assertThat(BatchScript.exitCodeFile(request)).hasContent("3");
    assertThat(request.workdir().resolve("berth-exit-code.1.tmp")).doesNotExist();
  }

  @Test
  void aDeathBySignalIsWrittenAs128PlusTheSignal() throws Exception {
    LaunchRequest request = request("killed", List.of("sh", "-c", "kill -9 $$"), Map.of());

    assertThat(run(request, BatchScript.forTask(request), Map.of())).isEqualTo(137);
    assertThat(BatchScript.exitCodeFile(request)).hasContent("137");
  }

  @Test
  void theSignalSlurmSendsTheScriptBeforeTheTimeLimitReachesTheProgramWhichCheckpointsAndEndsWithItsOwnCode()
      throws Exception {
    // Slurm's --signal=B:USR1 goes to the script alone; the program stands in for it, asking until it is passed on.
    LaunchRequest request = request("checkpoint", List.of("sh", "-c", "trap 'echo saved > ckpt; exit 3' USR1;"
        + " i=0; while [ $i -lt 100 ]; do kill -USR1 $PPID || exit 4; i=$((i+1)); sleep 0.1; done; exit 5"), Map.of());

    int code = run(request, BatchScript.forTask(request, JobSignal.parse("USR1@5m")), Map.of());

    assertThat(code).isEqualTo(3);
    assertThat(request.workdir().resolve("ckpt")).hasContent("saved");
    assertThat(BatchScript.exitCodeFile(request)).hasContent("3");
  }

  @Test
  void aProgramNamedLikeAShellBuiltinIsLookedUpAsAProgram() throws Exception {
    LaunchRequest request = request("builtin", List.of("exit", "0"), Map.of());

    assertThat(run(request, BatchScript.forTask(request), Map.of())).isEqualTo(127);
    assertThat(BatchScript.exitCodeFile(request)).hasContent("127");
  }

  @Test
  void anOldExitCodeFileIsRemovedBeforeTheProgramRuns() throws Exception {
    LaunchRequest request = request("again", List.of("sh", "-c", "test -e berth-exit-code.1 && exit 9; exit 0"),
        Map.of());
    Files.createDirectories(request.workdir());
    Files.writeString(BatchScript.exitCodeFile(request), "5\n");

    assertThat(run(request, BatchScript.forTask(request), Map.of())).isZero();
    assertThat(BatchScript.exitCodeFile(request)).hasContent("0");
  }

  @Test
  void anArrayElementRunsItsOwnTaskInItsOwnFolder() throws Exception {
    LaunchRequest first = request("a", List.of("sh", "-c", "echo first; exit 1"), Map.of());
    LaunchRequest second = request("b", List.of("sh", "-c", "pwd; echo \"$WHO\" >&2; exit 2"), Map.of("WHO", "second"));
    String script = BatchScript.forArray("pair", List.of(first, second));

    assertThat(runIn(dir, script, Map.of("SLURM_ARRAY_TASK_ID", "1"))).isEqualTo(2);

    assertThat(Files.readString(second.stdout())).isEqualTo(second.workdir().toRealPath() + "\n");
    assertThat(Files.readString(second.stderr())).isEqualTo("second\n");
    assertThat(BatchScript.exitCodeFile(second)).hasContent("2");
    assertThat(first.stdout()).doesNotExist();
    assertThat(BatchScript.exitCodeFile(first)).doesNotExist();
  }

  @Test
  void anElementTheArrayDoesNotHaveFails() throws Exception {
    String script = BatchScript.forArray("one", List.of(request("a", List.of("true"), Map.of())));

    assertThat(runIn(dir, script, Map.of("SLURM_ARRAY_TASK_ID", "7"))).isEqualTo(1);
    assertThat(dir.resolve("run.err")).hasContent("no task for array element 7");
  }

  @Test
  void quotingWrapsInSingleQuotes() {
    assertThat(BatchScript.quote("plain")).isEqualTo("'plain'");
    assertThat(BatchScript.quote("it's")).isEqualTo("'it'\\''s'");
    assertThat(BatchScript.quote("")).isEqualTo("''");
  }

  @Test
  void whatAScriptCannotCarryIsRejected() {
    assertThatThrownBy(() -> BatchScript.forTask(request("v", List.of("true"), Map.of("NOT-A-NAME", "x"))))
        .hasMessageContaining("variable name 'NOT-A-NAME' cannot be set by a batch script");
    assertThatThrownBy(() -> BatchScript.forTask(request("n", List.of("echo", "a\0b"), Map.of())))
        .hasMessageContaining("NUL");
    assertThatThrownBy(() -> BatchScript.forArray("none", List.of())).hasMessageContaining("at least one element");
  }

  private LaunchRequest request(String task, List<String> command, Map<String, String> env) {
    Path workdir = dir.resolve(task);
    return new LaunchRequest(TaskId.of(task), 1, command, new TreeMap<>(env), workdir, workdir.resolve("stdout.log"),
        workdir.resolve("stderr.log"));
  }

  /** Runs a task's script as sbatch would: in its folder, output appended to its files. */
  private static int run(LaunchRequest request, String script, Map<String, String> env) throws Exception {
    Files.createDirectories(request.workdir());
    Path file = BatchScript.scriptFile(request);
    Files.writeString(file, script);
    ProcessBuilder builder = new ProcessBuilder("sh", file.toString()).directory(request.workdir().toFile())
        .redirectOutput(Redirect.appendTo(request.stdout().toFile()))
        .redirectError(Redirect.appendTo(request.stderr().toFile()));
    builder.environment().putAll(env);
    return waitFor(builder.start());
  }

  /** Runs an array's script in {@code folder}, its own output going to run.out and run.err there. */
  private static int runIn(Path folder, String script, Map<String, String> env) throws Exception {
    Path file = folder.resolve("array.sh");
    Files.writeString(file, script);
    ProcessBuilder builder = new ProcessBuilder("sh", file.toString()).directory(folder.toFile())
        .redirectOutput(folder.resolve("run.out").toFile()).redirectError(folder.resolve("run.err").toFile());
    builder.environment().putAll(env);
    for (String element : List.of("a", "b")) {
      Files.createDirectories(folder.resolve(element));
    }
    return waitFor(builder.start());
  }

  private static int waitFor(Process process) throws InterruptedException, IOException {
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException("the script did not end in 20 s");
    }
    return process.exitValue();
  }
}

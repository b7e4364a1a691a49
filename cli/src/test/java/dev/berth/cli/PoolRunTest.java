package dev.berth.cli;

import static dev.berth.cli.RunFiles.report;
import static dev.berth.cli.RunFiles.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * End to end: call tasks in an engine pool follow the rules of process tasks. A call whose engine
 * dies is retried on a fresh engine, a call that overruns its timeout is ended with its engine, and a
 * run killed while calls run resumes without losing or repeating any.
 */
class PoolRunTest {

  private static final String MODULE = """
      import os, signal, time
      def dies_once():
          if os.environ["BERTH_ATTEMPT"] == "1":
              os.kill(os.getpid(), signal.SIGKILL)
          return {"engine": os.environ["BERTH_ENGINE"]}
      def sleeps(seconds, **matrix):
          time.sleep(seconds)
          return {"engine": os.environ["BERTH_ENGINE"]}
      def counted(n, seconds):
          with open("runs", "a") as f:
              f.write("run\\n")
          time.sleep(seconds)
          with open("runs", "a") as f:
              f.write("done\\n")
          return {"n": n}
      """;

  private static final String CONFIG = """
      config:
        scheduler: {default-memory: 1MiB, interval: 200ms}
        remain-limit: {memory: 1MiB}
        utilization-limit: {cpu: 1.0}
      """;

  @TempDir Path dir;

  private static JsonNode task(JsonNode report, String id) {
    for (JsonNode g : report.get("groups")) {
      for (JsonNode t : g.get("tasks")) {
        if (t.get("id").asText().equals(id)) {
          return t;
        }
      }
    }
    throw new AssertionError("no task " + id);
  }

  @Test
  void aCallWhoseEngineDiesIsRetriedOnAFreshEngine() throws Exception {
    Files.writeString(dir.resolve("pooltasks.py"), MODULE);
    Path spec = spec(dir, "dies", CONFIG + """
        pools:
          p: {size: 1}
        groups:
          - name: main
            tasks:
              - {id: dies, call: "pooltasks:dies_once", pool: p, retries: 1}
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    JsonNode attempts = task(report(dir), "dies").get("attempts");
    assertThat(attempts).hasSize(2);
    assertThat(attempts.get(0).get("exitCode").asInt()).isEqualTo(137);
    assertThat(attempts.get(0).get("clusterJob").asText()).isEqualTo("p/engine-1");
    assertThat(attempts.get(1).get("outcome").asText()).isEqualTo("SUCCEEDED");
    assertThat(attempts.get(1).get("clusterJob").asText()).isEqualTo("p/engine-2");
    assertThat(dir.resolve("out/main/dies/result.json")).content().contains("p/engine-2");
  }

  @Test
  void aJavaTaskWhoseEngineDiesIsRetriedOnAFreshJvmEngineAndTheNextReusesIt() throws Exception {
    Path src = dir.resolve("src/demo/Halts.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, """
        package demo;
        import dev.berth.task.*;
        import java.util.Map;
        public class Halts implements BerthTask {
          @Override public Map<String, Object> train(Device device, TaskContext ctx) {
            if (ctx.taskId().equals("dies") && ctx.attempt() == 1) {
              Runtime.getRuntime().halt(137);
            }
            return Map.of("pid", ProcessHandle.current().pid(), "n", ctx.params().getOrDefault("n", "-"));
          }
        }
        """);
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes);
    assertThat(javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
        "-cp", System.getProperty("java.class.path"), src.toString())).isZero();
    Path spec = spec(dir, "jvm", CONFIG + """
        pools:
          j: {language: java, size: 1}
        groups:
          - name: main
            tasks:
              - {id: dies, java: demo.Halts, classpath: ["%s"], pool: j, retries: 1}
              - {id: "next-{n}", matrix: {n: [1, 2]}, java: demo.Halts, classpath: ["%s"], pool: j, after: [dies]}
        """.formatted(classes, classes));

    CliRunner run = CliRunner.berth("run", "--no-progress", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    JsonNode attempts = task(report(dir), "dies").get("attempts");
    assertThat(attempts).hasSize(2);
    assertThat(attempts.get(0).get("exitCode").asInt()).isEqualTo(137);
    assertThat(attempts.get(0).get("clusterJob").asText()).isEqualTo("j/engine-1");
    assertThat(attempts.get(1).get("clusterJob").asText()).isEqualTo("j/engine-2");
    String pid = RunFiles.json(dir.resolve("out/main/dies/result.json")).get("pid").asText();
    for (String next : List.of("next-1", "next-2")) {
      JsonNode result = RunFiles.json(dir.resolve("out/main/" + next + "/result.json"));
      assertThat(result.get("pid").asText()).isEqualTo(pid);
      assertThat(result.get("n").asText()).isEqualTo(next.substring(5));
    }
  }

  @Test
  void aCallThatOverrunsItsTimeoutIsEndedWithItsEngineAndTheNextCallGetsAFreshOne() throws Exception {
    Files.writeString(dir.resolve("pooltasks.py"), MODULE);
    Path spec = spec(dir, "timeout", CONFIG + """
        pools:
          p: {size: 1}
        groups:
          - name: first
            tasks:
              - {id: slow, call: "pooltasks:sleeps", pool: p, params: {seconds: 600}, timeout: 1s}
          - name: second
            tasks:
              - {id: next, call: "pooltasks:sleeps", pool: p, params: {seconds: 0}}
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isEqualTo(ExitCodes.TASKS_FAILED);
    JsonNode report = report(dir);
    assertThat(task(report, "slow").get("status").asText()).isEqualTo("TIMED_OUT");
    assertThat(task(report, "slow").get("attempts").get(0).get("clusterJob").asText()).isEqualTo("p/engine-1");
    assertThat(task(report, "next").get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(task(report, "next").get("attempts").get(0).get("clusterJob").asText()).isEqualTo("p/engine-2");
  }

  @Test
  void aCallThatWaitedInThePoolForAnEngineShowsTheEngineItRanInAndIsTimedFromItsStart() throws Exception {
    Files.writeString(dir.resolve("pooltasks.py"), MODULE);
    Path spec = spec(dir, "waits", CONFIG + """
        pools:
          p: {size: 1, hwm: 1}
        groups:
          - name: main
            tasks:
              - {id: "w-{n}", call: "pooltasks:sleeps", pool: p, matrix: {n: [1, 2, 3, 4, 5]}, params: {seconds: 1},
                 timeout: 3s}
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    JsonNode report = report(dir);
    for (String id : List.of("w-1", "w-2", "w-3", "w-4", "w-5")) {
      JsonNode attempts = task(report, id).get("attempts");
      assertThat(attempts).as(id).hasSize(1);
      assertThat(attempts.get(0).get("outcome").asText()).as(id + ": the last waited 4 s, then ran 1 s").isEqualTo(
          "SUCCEEDED");
      assertThat(attempts.get(0).get("clusterJob").asText()).as(id).isEqualTo("p/engine-1");
      assertThat(attempts.get(0).get("pid").asLong()).as(id).isPositive();
    }
  }

  /** The most times a trial kills its run. */
  private static final int KILLS = 4;

  static IntStream trials() {
    return IntStream.range(0, 3);
  }

  @ParameterizedTest(name = "trial {0}")
  @MethodSource("trials")
  void aRunKilledWhileCallsRunResumesWithoutLosingOrRepeatingAny(int trial) throws Exception {
    Random random = new Random(trial);
    Files.writeString(dir.resolve("pooltasks.py"), MODULE);
    Path spec = spec(dir, "resume", CONFIG + """
        pools:
          p: {size: 2, hwm: %s}
        groups:
          - name: main
            tasks:
              - {id: "c-{n}", call: "pooltasks:counted", pool: p, matrix: {n: [1, 2, 3, 4, 5, 6, 7, 8]},
                 params: {seconds: 0.3}}
        """.formatted(trial == 0 ? "auto" : "3")); // with 3, calls wait queued in the engines when the run is killed

    int kills = 0;
    BerthProcess p = BerthProcess.start(dir, "run", "--no-progress", spec.toString());
    // A few kills, then the run is let end: on a loaded machine a Berth may take longer to start than
    // the kills leave it, and killing it for ever would prove nothing more.
    while (kills < KILLS && !p.process.waitFor(1500 + random.nextInt(1500), TimeUnit.MILLISECONDS)) {
      p.process.destroyForcibly().waitFor();
      kills++;
      p = BerthProcess.start(dir, "run", "--no-progress", spec.toString());
    }
    assertThat(p.process.waitFor(180, TimeUnit.SECONDS)).as("trial %d: the run after %d kills ends", trial, kills)
        .isTrue();
    assertThat(p.process.exitValue()).as("trial %d: the last resume ends the run (after %d kills): %s", trial, kills,
        p.output()).isZero();

    JsonNode report = report(dir);
    assertThat(report.get("status").asText()).isEqualTo("SUCCEEDED");
    for (JsonNode t : report.get("groups").get(0).get("tasks")) {
      String id = t.get("id").asText();
      Path folder = dir.resolve("out/main").resolve(id);
      List<String> lines = Files.readAllLines(folder.resolve("runs"));
      long runs = lines.stream().filter("run"::equals).count();
      long completed = lines.stream().filter("done"::equals).count();
      assertThat(completed).as("trial %d: %s ran to its end once (%d kills)", trial, id, kills).isEqualTo(1);
      assertThat(runs).as("trial %d: every run of %s is a recorded attempt", trial, id)
          .isBetween(1L, (long) t.get("attempts").size());
      assertThat(folder.resolve("result.json")).exists();
    }
  }
}

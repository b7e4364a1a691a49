package dev.berth.cli;

import static dev.berth.cli.RunFiles.report;
import static dev.berth.cli.RunFiles.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: a sweep that finished grows when its spec gains matrix values, by the same {@code berth
 * run}: only the new tasks run, each time, and the reports show every task and each revision.
 */
class GrowRunTest {

  /** Counts its runs in ./runs, in its own folder. */
  private static final String COUNTS = "open('runs', 'a').write('run\\\\n')";

  @TempDir Path dir;

  private Path sweep(String lrs, String seeds, String memory) throws Exception {
    return spec(dir, "sweep", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: fit
            cpus: 0
            tasks:
              - id: "fit-{lr}-{seed}"
                matrix: {lr: [%s], seed: [%s]}
                memory: %s
                command: [python3, -c, "%s"]
              - id: done
                command: ["true"]
        """.formatted(lrs, seeds, memory, COUNTS));
  }

  private long runs(String task) throws Exception {
    Path file = dir.resolve("out/fit").resolve(task).resolve("runs");
    return Files.exists(file) ? Files.readAllLines(file).size() : 0;
  }

  private static List<String> ids(JsonNode report) {
    List<String> ids = new ArrayList<>();
    report.get("groups").forEach(g -> g.get("tasks").forEach(t -> ids.add(t.get("id").asText() + " "
        + t.get("status").asText())));
    return ids;
  }

  @Test
  void aFinishedSweepGrownTwiceRunsOnlyItsNewTasksEachTimeAndItsReportShowsThemAll() throws Exception {
    CliRunner first = CliRunner.berth("run", "--no-progress", sweep("0.1", "1, 2", "1MiB").toString());
    assertThat(first.exitCode).as(first.out + first.err).isZero();

    CliRunner seeds = CliRunner.berth("run", "--no-progress", sweep("0.1", "1, 2, 3", "1MiB").toString());

    assertThat(seeds.exitCode).as(seeds.out + seeds.err).isZero();
    assertThat(seeds.out)
        .contains("the spec changed since sweep finished (SUCCEEDED): 1 task added (seed=3), 0 removed, 0 changed")
        .contains("added to fit (1): fit-0.1-3").doesNotContain("finished already");
    assertThat(runs("fit-0.1-3")).isEqualTo(1);
    assertThat(runs("fit-0.1-1")).isEqualTo(1);

    CliRunner lrs = CliRunner.berth("run", "--no-progress", sweep("0.1, 0.01", "1, 2, 3", "1MiB").toString());

    assertThat(lrs.exitCode).as(lrs.out + lrs.err).isZero();
    assertThat(lrs.out).contains("3 tasks added (lr=0.01), 0 removed, 0 changed");
    for (String task : List.of("fit-0.1-1", "fit-0.1-2", "fit-0.1-3", "fit-0.01-1", "fit-0.01-2", "fit-0.01-3")) {
      assertThat(runs(task)).as(task).isEqualTo(1);
    }
    JsonNode report = report(dir);
    assertThat(report.get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(ids(report)).containsExactly("fit-0.1-1 SUCCEEDED", "fit-0.1-2 SUCCEEDED", "fit-0.1-3 SUCCEEDED",
        "fit-0.01-1 SUCCEEDED", "fit-0.01-2 SUCCEEDED", "fit-0.01-3 SUCCEEDED", "done SUCCEEDED");
    assertThat(report.get("revisions")).extracting(r -> r.get("summary").asText()).containsExactly(
        "1 task added (seed=3), 0 removed, 0 changed", "3 tasks added (lr=0.01), 0 removed, 0 changed");
    assertThat(Files.readString(dir.resolve("out/report.md"))).contains("## Spec revisions")
        .contains("3 tasks added (lr=0.01), 0 removed, 0 changed");
    assertThat(Files.readString(dir.resolve("out/report.html"))).contains("Spec revisions");

    CliRunner same = CliRunner.berth("run", "--no-progress", sweep("0.1, 0.01", "1, 2, 3", "1MiB").toString());
    assertThat(same.exitCode).isZero();
    assertThat(same.out).contains("sweep finished already (SUCCEEDED)").contains(", --fresh to start it over");

    CliRunner resume = CliRunner.berth("resume", "--no-progress", dir.resolve("out").toString());
    assertThat(resume.exitCode).isZero();
    assertThat(resume.out).as("resume takes no --fresh").contains("sweep finished already (SUCCEEDED)")
        .contains(", berth run SPEC --fresh to start it over").doesNotContain(", --fresh");
  }

  @Test
  void aFinishedSweepWhoseTasksChangedIsRefusedWithTheChangesSummarisedUnlessAllowed() throws Exception {
    assertThat(CliRunner.berth("run", "--no-progress", sweep("0.1", "1, 2, 3, 4, 5", "1MiB").toString()).exitCode)
        .isZero();
    Path changed = sweep("0.1", "1, 2, 3, 4, 5, 6", "2MiB");

    CliRunner refused = CliRunner.berth("run", "--no-progress", changed.toString());
    CliRunner stored = CliRunner.berth("run", "--no-progress", "--allow-changed=stored", changed.toString());
    CliRunner applied = CliRunner.berth("run", "--no-progress", "--allow-changed=new", changed.toString());

    assertThat(refused.exitCode).isEqualTo(2);
    assertThat(refused.err.lines().toList()).containsExactly(
        "berth: the spec changed since this run finished in " + dir.resolve("out") + ": 1 task added (seed=6),"
            + " 0 removed, 5 changed (use --allow-changed=stored to go on with the spec it started with,"
            + " --allow-changed=new to apply the changes, or --fresh to start over)",
        "  added to fit (1): fit-0.1-6",
        "  fit: memory: 1 MiB -> 2 MiB in 5 tasks: fit-0.1-1, fit-0.1-2, fit-0.1-3 … and 2 more");
    assertThat(stored.exitCode).isZero();
    assertThat(stored.out).contains("finished already").contains("--allow-changed=stored left that aside");
    assertThat(applied.exitCode).as(applied.out + applied.err).isZero();
    assertThat(runs("fit-0.1-6")).isEqualTo(1);
    assertThat(runs("fit-0.1-1")).isEqualTo(1);
  }
}

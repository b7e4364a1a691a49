package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.runtime.engine.ProcessTable;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose journal was emptied, removed or cut short is refused with one line and exit code 2,
 * and none of its finished tasks runs again; a fresh start and a workdir of the wrong kind are
 * refused the same way.
 */
class LostJournalTest {

  @TempDir Path dir;

  /** Twenty quick tasks; each appends its id to {@code dir/runs} when it starts. */
  private Path spec() throws Exception {
    return spec("sleep 0.15");
  }

  /** Twenty tasks; each appends its id to {@code dir/runs} when it starts, then runs {@code then}. */
  private Path spec(String then) throws Exception {
    return RunFiles.spec(dir, "lost", """
        config: {scheduler: {default-memory: 1MiB, max-process: 4, interval: 100ms}, remain-limit: {memory: 1MiB},
                 utilization-limit: {cpu: 1.0}}
        groups:
          - name: g
            tasks:
              - id: "t-{n}"
                matrix: {n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]}
                command: [sh, -c, "echo t-{n} >> %s; %s"]
        """.formatted(dir.resolve("runs"), then));
  }

  private long runs() throws Exception {
    return Files.exists(dir.resolve("runs")) ? Files.readAllLines(dir.resolve("runs")).size() : 0;
  }

  /**
   * The starts counted once no task process of the killed run is left: a process its Berth spawned
   * just before the SIGKILL may run its command's first line after the kill, a start of the killed
   * run's, not of the next command's.
   */
  private long runsOnceTheKilledRunsTasksEnded() throws Exception {
    String runDir = dir.resolve("out").toString();
    ProcessTable processes = ProcessTable.LOCAL;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (processes.all().anyMatch(p -> processes.berthVariables(p.pid())
        .filter(env -> runDir.equals(env.get("BERTH_RUN_DIR"))).isPresent()) && System.nanoTime() < deadline) {
      Thread.sleep(50); // waiting on other processes: there is no event to wait for from here
    }
    return runs();
  }

  @Test
  void anEmptiedOrRemovedJournalOfAFinishedRunIsRefusedAndNothingRunsAgain() throws Exception {
    Path spec = spec();
    assertThat(CliRunner.berth("run", "--no-progress", spec.toString()).exitCode).isZero();
    Path journal = dir.resolve("out/.berth/journal.db");

    Files.write(journal, new byte[0]);
    CliRunner emptied = CliRunner.berth("run", "--no-progress", spec.toString());
    Files.delete(journal);
    CliRunner removed = CliRunner.berth("run", "--no-progress", spec.toString());

    assertThat(emptied.exitCode).isEqualTo(2);
    assertThat(emptied.err.strip()).contains("journal.db is empty").contains("20 task folders").contains("--fresh")
        .doesNotContain("\n");
    assertThat(removed.exitCode).isEqualTo(2);
    assertThat(removed.err.strip()).contains("journal.db is missing").doesNotContain("\n");
    assertThat(runs()).isEqualTo(20);
  }

  @Test
  void aJournalWhoseWriteAheadLogWasCutInHalfAfterACrashIsRefused() throws Exception {
    // Tasks past the twelfth wait for the gate, so the run is still going whenever the kill comes.
    Path gate = dir.resolve("gate");
    Path spec = spec("if [ {n} -gt 12 ]; then while [ -d " + dir + " ] && [ ! -e " + gate
        + " ]; do sleep 0.05; done; fi; sleep 0.15");
    BerthProcess berth = BerthProcess.start(dir, "run", "--no-progress", spec.toString());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (runs() < 13) {
      assertThat(berth.process.waitFor(20, TimeUnit.MILLISECONDS)).as(berth.output()).isFalse();
      assertThat(System.nanoTime() - deadline).as("the thirteenth task started within 120 s").isNegative();
    }
    berth.signal("KILL");
    assertThat(berth.await(60)).as("killed").isNotEqualTo(-1);
    Files.createFile(gate); // the killed Berth's waiting tasks end
    long ran = runsOnceTheKilledRunsTasksEnded();
    Path wal = dir.resolve("out/.berth/journal.db-wal");
    try (RandomAccessFile f = new RandomAccessFile(wal.toFile(), "rw")) {
      f.setLength(f.length() / 2);
    }

    CliRunner again = CliRunner.berth("run", "--no-progress", spec.toString());

    assertThat(again.exitCode).as(again.out + again.err).isEqualTo(2);
    assertThat(again.err.strip()).contains("write-ahead log").contains("--fresh").doesNotContain("\n");
    assertThat(runs()).isEqualTo(ran);
  }

  @Test
  void aJournalThatLostItsWriteAheadLogAndCommitMarkIsRefusedWhenTheFolderShowsTasksItDoesNotKnowEnded()
      throws Exception {
    Path gate = dir.resolve("gate");
    Path spec = spec("if [ {n} -gt 12 ]; then while [ -d " + dir + " ] && [ ! -e " + gate
        + " ]; do sleep 0.05; done; fi; sleep 0.15");
    BerthProcess berth = BerthProcess.start(dir, "run", "--no-progress", spec.toString());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (runs() < 13) {
      assertThat(berth.process.waitFor(20, TimeUnit.MILLISECONDS)).as(berth.output()).isFalse();
      assertThat(System.nanoTime() - deadline).as("the thirteenth task started within 120 s").isNegative();
    }
    berth.signal("KILL");
    assertThat(berth.await(60)).as("killed").isNotEqualTo(-1);
    Files.createFile(gate);
    long ran = runsOnceTheKilledRunsTasksEnded();
    Files.delete(dir.resolve("out/.berth/journal.db-wal"));
    Files.deleteIfExists(dir.resolve("out/.berth/journal.db.committed"));

    CliRunner again = CliRunner.berth("run", "--no-progress", spec.toString());

    assertThat(again.exitCode).as(again.out + again.err).isEqualTo(2);
    assertThat(again.err.strip()).contains("journal.db does not know").contains("attempt 1 (exit 0)")
        .contains("write-ahead log").contains("--fresh").doesNotContain("\n");
    assertThat(runs()).isEqualTo(ran);
  }

  @Test
  void aResumeWhoseJournalSharedMemoryIsImmutableStopsWithALineNamingItAndExitThree() throws Exception {
    Path gate = dir.resolve("gate");
    Path spec = spec("if [ {n} -gt 12 ]; then while [ -d " + dir + " ] && [ ! -e " + gate
        + " ]; do sleep 0.05; done; fi; sleep 0.15");
    BerthProcess berth = BerthProcess.start(dir, "run", "--no-progress", spec.toString());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (runs() < 13) {
      assertThat(berth.process.waitFor(20, TimeUnit.MILLISECONDS)).as(berth.output()).isFalse();
      assertThat(System.nanoTime() - deadline).as("the thirteenth task started within 120 s").isNegative();
    }
    berth.signal("KILL");
    assertThat(berth.await(60)).as("killed").isNotEqualTo(-1);
    Files.createFile(gate);
    long ran = runsOnceTheKilledRunsTasksEnded();
    Path shm = dir.resolve("out/.berth/journal.db-shm");
    assumeTrue(chattr("+i", shm) && !Files.isWritable(shm), "chattr +i does not work here");
    CliRunner again;
    try {
      again = CliRunner.berth("run", "--no-progress", spec.toString());
    } finally {
      chattr("-i", shm);
    }

    assertThat(again.exitCode).as(again.out + again.err).isEqualTo(3);
    assertThat(again.err.strip()).contains(shm + ": cannot be written").doesNotContain("\n");
    assertThat(runs()).isEqualTo(ran);
  }

  private static boolean chattr(String flag, Path file) throws InterruptedException {
    try {
      Process p = new ProcessBuilder("chattr", flag, file.toString()).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor() == 0;
    } catch (java.io.IOException e) {
      return false; // no chattr here
    }
  }

  @Test
  void aFreshStartInAFolderThatNeverHeldARunIsRefusedAndTheFolderStays() throws Exception {
    Path spec = spec();
    Files.createDirectories(dir.resolve("out"));
    Files.writeString(dir.resolve("out/thesis.tex"), "chapter one");

    CliRunner fresh = CliRunner.berth("run", "--fresh", "--no-progress", spec.toString());

    assertThat(fresh.exitCode).isEqualTo(2);
    assertThat(fresh.err.strip()).contains("holds files but no Berth run").doesNotContain("\n");
    assertThat(dir.resolve("out/thesis.tex")).exists();
    assertThat(runs()).isZero();
  }

  @Test
  void theSpecsOwnFolderIsRefusedAsTheWorkdir() throws Exception {
    Path spec = Files.writeString(dir.resolve("here.yaml"), Files.readString(spec())
        .replace("workdir: " + dir.resolve("out"), "workdir: " + dir));

    CliRunner run = CliRunner.berth("run", "--no-progress", spec.toString());

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err.strip()).contains("is the folder of the spec file").doesNotContain("\n");
    assertThat(dir.resolve(".berth")).doesNotExist();
  }
}

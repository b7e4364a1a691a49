package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A workdir that is missing, damaged or another run's is a clear one-line error with exit code 2. */
class JournalErrorsTest {

  @TempDir Path dir;

  private Path spec(String name) throws Exception {
    Path spec = dir.resolve(name + ".yaml");
    Files.writeString(spec, """
        name: %s
        workdir: %s
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups: [{name: g, tasks: [{id: a, command: ["true"]}]}]
        """.formatted(name, dir.resolve("out")));
    return spec;
  }

  @Test
  void aMissingWorkdirIsRefused() {
    CliRunner status = CliRunner.berth("status", dir.resolve("nowhere").toString());

    assertThat(status.exitCode).isEqualTo(2);
    assertThat(status.err.strip()).contains("no such run workdir").doesNotContain("\n");
  }

  @Test
  void aCorruptJournalIsRefusedNamingTheFile() throws Exception {
    Path journal = dir.resolve("out/.berth/journal.db");
    Files.createDirectories(journal.getParent());
    Files.write(journal, "this is not a database, just some bytes ".repeat(200).getBytes());

    CliRunner status = CliRunner.berth("status", dir.resolve("out").toString());
    CliRunner run = CliRunner.berth("run", spec("one").toString());

    assertThat(status.exitCode).isEqualTo(2);
    assertThat(status.err.strip()).contains("journal.db").doesNotContain("\n").doesNotContain("Exception");
    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err.strip()).contains("journal.db").doesNotContain("\n");
  }

  /** A run that started and was killed before it ended: its journal holds the spec and no end. */
  private void startedButKilled(Path spec) throws Exception {
    var run = dev.berth.spec.SpecLoader.load(spec, null, java.util.List.of());
    try (var journal = dev.berth.journal.SqliteJournal.create(dir.resolve("out/.berth/journal.db"))) {
      journal.start(run.name(), dev.berth.journal.SpecCodec.encode(run), java.time.Instant.now());
    }
  }

  @Test
  void theWorkdirOfAnotherRunIsNotTakenOver() throws Exception {
    startedButKilled(spec("first"));

    CliRunner other = CliRunner.berth("run", spec("second").toString());

    assertThat(other.exitCode).isEqualTo(2);
    assertThat(other.err.strip()).contains("the spec changed").contains("first").contains("second")
        .doesNotContain("\n");
  }

  @Test
  void aChangedSpecIsRefusedWithItsDifferencesUnlessAllowed() throws Exception {
    Path spec = spec("s");
    startedButKilled(spec);
    Files.writeString(spec, Files.readString(spec).replace("id: a,", "id: a, memory: 2MiB,"));

    CliRunner refused = CliRunner.berth("run", spec.toString());
    CliRunner allowed = CliRunner.berth("run", "--allow-changed=new", spec.toString());

    assertThat(refused.exitCode).isEqualTo(2);
    assertThat(refused.err).contains("memory").contains("--allow-changed");
    assertThat(allowed.exitCode).as(allowed.out + allowed.err).isZero();
    assertThat(allowed.out).contains("resuming s");
  }
}

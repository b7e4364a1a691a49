package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.ExecutorKind;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.core.scheduling.RunState;
import dev.berth.report.MailSend;
import dev.berth.report.NotifySettings;
import dev.berth.report.SmtpKeys;
import dev.berth.report.SmtpSettings;
import dev.berth.report.WebhookEvent;
import dev.berth.slurm.SlurmConfig;
import dev.berth.slurm.SlurmKeys;
import dev.berth.spec.SpecLoader;
import dev.berth.spi.JobsOnExit;
import dev.berth.spi.Journal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal written by the Berth that kept the mail, webhook and Slurm settings in core's
 * SchedulerConfig ({@code journal-adapters/}, whose {@code fixture.yaml} says what it holds): each
 * adapter now reads its own settings back from it, and the run resumes.
 */
class AdapterJournalFixtureTest {

  private static final Path FIXTURES = Path.of("src/test/resources/journal-adapters");
  private static final List<dev.berth.core.model.SettingsTable<?, ?>> ADAPTERS = RandomSpecs.ADAPTERS;

  @TempDir Path dir;

  private Path copy() throws Exception {
    Path db = dir.resolve("started.db");
    Files.copy(FIXTURES.resolve("started.db"), db);
    return db;
  }

  private static String stored() throws Exception {
    return Files.readString(FIXTURES.resolve("spec.json")).strip();
  }

  @Test
  void eachAdapterReadsItsOwnSettingsBackAndCoreItsTypedSchedulingSettings() throws Exception {
    RunSpec run = SpecCodec.decode(stored(), ADAPTERS);

    assertThat(run.config().executor()).isEqualTo(ExecutorKind.SLURM);
    assertThat(run.config().placement()).isEqualTo(PlacementPolicyName.ROUND_ROBIN);
    assertThat(run.config().learnGpuMemory()).as("learn-usage: max, retired, reads as the one rule").isTrue();
    assertThat(run.config().maxJobs()).isEqualTo(50);
    assertThat(run.tasks().get(0).gpu().placement()).contains(PlacementPolicyName.PCI_REVERSE);
    assertThat(SlurmKeys.TABLE.of(run)).isEqualTo(SlurmConfig.builder().set(SlurmKeys.PARTITION, "gpu")
        .set(SlurmKeys.ACCOUNT, "lab")
        .set(SlurmKeys.TIME, Duration.ofHours(2)).set(SlurmKeys.EXTRA_ARGS, List.of("--constraint=a100"))
        .set(SlurmKeys.ON_EXIT, JobsOnExit.LEAVE)
        .set(SlurmKeys.POLL_MAX, Duration.ofSeconds(10)).set(SlurmKeys.GPU_MEMORY_GRES, "shard").build());
    assertThat(SmtpKeys.TABLE.of(run)).isEqualTo(SmtpSettings.builder().enable(true).serverHost("mail.example")
        .serverPort(587).starttls(true).user("berth@example.org").receivers(List.of("a@example.org", "b@example.org"))
        .send(MailSend.BOTH).minInterval(Duration.ofMinutes(30)).build());
    assertThat(NotifySettings.TABLE.of(run)).isEqualTo(new NotifySettings(Optional.of("https://hooks.example/T/123"),
        List.of(WebhookEvent.RUN_END, WebhookEvent.TASK_FAILED)));
    assertThat(run.reporting().objectiveKey()).contains("val_acc");
  }

  @Test
  void theStoredSpecIsWrittenAgainByteForByteButForTheWebhookAddressANewerBerthKeepsSecret() throws Exception {
    assertThat(SpecCodec.encode(SpecCodec.decode(stored(), ADAPTERS), ADAPTERS)).isEqualTo(TodaysSpec.of(stored()))
        .doesNotContain("hooks.example");
  }

  @Test
  void theStoredSpecIsWrittenAgainByteForByteButForTheRetiredLearnUsage() throws Exception {
    assertThat(stored()).contains("\"learn-usage\":\"max\"");
    assertThat(SpecCodec.encode(SpecCodec.decode(stored(), ADAPTERS), ADAPTERS)).doesNotContain("learn-usage")
        .isEqualTo(TodaysSpec.of(stored()));
  }

  @Test
  void theSpecFileGivenAgainWithoutTheRetiredKeyIsSeenAsUnchangedAndItsPasswordIsNotStored() throws Exception {
    Path file = dir.resolve("fixture.yaml");
    Files.writeString(file, Files.readString(FIXTURES.resolve("fixture.yaml")).replace(", learn-usage: max", ""));
    RunSpec now = SpecLoader.load(file, null, null, ADAPTERS);

    assertThat(SpecDiff.between(SpecCodec.decode(stored(), ADAPTERS), now, ADAPTERS)).isEmpty();
    assertThat(SpecCodec.encode(now, ADAPTERS)).isEqualTo(TodaysSpec.of(stored())).doesNotContain("hunter2");
    assertThat(SmtpKeys.TABLE.of(now).password()).isEqualTo("hunter2-secret");
  }

  @Test
  void theStartedRunResumesTakesNewEventsAndEnds() throws Exception {
    Path db = copy();
    Instant at = Instant.parse("2026-11-25T08:10:00Z");
    try (SqliteJournal journal = SqliteJournal.open(db)) {
      journal.append(TaskId.of("fit"), new TaskEvent.Ended(at, Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
      journal.finish(RunStatus.FAILED, at.plusSeconds(1));
    }
    try (JournalReader reader = JournalReader.open(db)) {
      Journal.Replay replay = reader.read().orElseThrow();
      RunState state = JournalReader.state(replay, ADAPTERS);

      assertThat(replay.run().status()).contains(RunStatus.FAILED);
      assertThat(state.task(TaskId.of("fit")).state()).isEqualTo(TaskState.SUCCEEDED);
      assertThat(state.task(TaskId.of("fit")).history().attempts().get(0).clusterId()).contains("4242");
      assertThat(SlurmKeys.TABLE.of(state.spec()).partition()).isEqualTo("gpu");
    }
  }
}

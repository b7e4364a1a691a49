package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import dev.berth.report.NotifySettings;
import dev.berth.report.SmtpKeys;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdapterTablesTest {

  private static RunSpec run() {
    return new RunSpec("r", "out", SchedulerConfig.DEFAULTS,
        List.of(new GroupSpec("g", List.of(TaskSpec.builder("a", "g").command("true").build()))));
  }

  @Test
  void theVariablesHoldingTheMailPasswordAndTheWebhookUrlAreTheSecretOnesTasksDoNotInherit() {
    RunSpec spec = SmtpKeys.TABLE.into(run(), SmtpKeys.TABLE.read(Map.of("smtp.password-env", "MAIL_PW")));
    spec = NotifySettings.TABLE.into(spec, NotifySettings.TABLE.read(Map.of("notify.url-env", "HOOK_URL")));

    assertThat(AdapterTables.secretVariables(spec)).containsExactly("HOOK_URL", "MAIL_PW");
  }

  @Test
  void aRunWithoutMailOrWebhookWithholdsNothing() {
    assertThat(AdapterTables.secretVariables(run())).isEmpty();
  }
}

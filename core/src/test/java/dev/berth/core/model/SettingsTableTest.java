package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.Setting;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTableTest {

  /** A small adapter's settings: a host, and a password that is a secret. */
  record Mail(String host, String password, int port) {
    Mail {
      if (port < 0) {
        throw new IllegalArgumentException("mail.port must be >= 0 but was " + port);
      }
      if (!password.isEmpty() && host.isEmpty()) {
        throw new IllegalArgumentException("mail.host is required when mail.password is set");
      }
    }
  }

  static final class MailBuilder {
    String host = "";
    String password = "";
    int port;

    Mail build() {
      return new Mail(host, password, port);
    }
  }

  private static final SettingsTable<Mail, MailBuilder> TABLE = SettingsTable.of("mail", Mail.class, MailBuilder::new,
      MailBuilder::build, List.of(
          ConfigKey.<Mail, MailBuilder>text("mail.host", (b, v) -> b.host = v, Mail::host, "server"),
          ConfigKey.<Mail, MailBuilder>text("mail.password", (b, v) -> b.password = v, Mail::password, "secret")
              .asSecret(),
          ConfigKey.<Mail, MailBuilder, Integer>of("mail.port", "whole number", Parsers.wholeNumber(0),
              (b, v) -> b.port = v, Mail::port, String::valueOf, "port")));

  private static RunSpec run() {
    return new RunSpec("r", "w", SchedulerConfig.DEFAULTS,
        List.of(new GroupSpec("g", List.of(TaskSpec.builder("a", "g").command("x").build()))));
  }

  @Test
  void valuesAsWrittenBuildTheRecordAndKeysLeftOutKeepTheirDefaults() {
    assertThat(TABLE.read(Map.of("mail.host", "smtp.example", "mail.port", "25")))
        .isEqualTo(new Mail("smtp.example", "", 25));
    assertThat(TABLE.defaults()).isEqualTo(new Mail("", "", 0));
    assertThat(TABLE.settings()).extracting(Setting::defaultValue).containsExactly("", "", "0");
  }

  @Test
  void aProblemIsPlacedAtTheKeyItsMessageNames() {
    assertThatThrownBy(() -> TABLE.read(Map.of("mail.port", "-1"))).isInstanceOfSatisfying(InvalidValue.class,
        e -> assertThat(e.path()).isEqualTo("mail.port")).hasMessage("must be a whole number >= 0 but was '-1'");
    assertThatThrownBy(() -> TABLE.read(Map.of("mail.password", "pw"))).isInstanceOfSatisfying(InvalidValue.class,
        e -> assertThat(e.path()).isEqualTo("mail.host")).hasMessage("is required when mail.password is set");
    assertThatThrownBy(() -> TABLE.read(Map.of("mail.hots", "x"))).isInstanceOfSatisfying(InvalidValue.class,
        e -> assertThat(e.path()).isEqualTo("mail.hots")).hasMessageContaining("did you mean 'mail.host'?");
  }

  @Test
  void aSecretIsNeitherStoredNorShown() {
    Mail mail = new Mail("h", "hunter2", 0);

    assertThat(TABLE.stored(mail)).containsOnlyKeys("mail.host", "mail.port");
    assertThat(TABLE.shown(mail)).containsEntry("mail.password", "****").containsEntry("mail.host", "h");
  }

  @Test
  void aRunCarriesTheSettingsOnlyWhenTheyAreNotTheDefaults() {
    RunSpec plain = run();
    RunSpec carrying = TABLE.into(plain, new Mail("h", "", 0));

    assertThat(TABLE.of(plain)).isEqualTo(TABLE.defaults());
    assertThat(TABLE.of(carrying)).isEqualTo(new Mail("h", "", 0));
    assertThat(TABLE.into(carrying, TABLE.defaults())).isEqualTo(plain);
    assertThat(TABLE.into(carrying, TABLE.read(Map.of()))).isEqualTo(plain);
    assertThat(TABLE.into(carrying, TABLE.read(Map.of("mail.host", "")))).isEqualTo(plain); // the default, written
    assertThat(carrying).isNotEqualTo(plain);
  }

  @Test
  void theSchedulingKeysReadBackWhatTheyShow() {
    SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.MAX_PROCESS, 3)
        .set(SchedulerKeys.MAX_JOBS, 7).build();
    Map<String, String> shown = SchedulerKeys.TABLE.shown(config);

    assertThat(SchedulerKeys.TABLE.read(shown)).isEqualTo(config);
    assertThat(SchedulerKeys.TABLE.read(SchedulerKeys.TABLE.stored(config))).isEqualTo(config);
    assertThat(shown.keySet()).allSatisfy(k -> assertThat(k).matches("(scheduler|utilization-limit|remain-limit"
        + "|slurm)\\..*"));
    assertThat(shown).containsEntry("slurm.max-jobs", "7");
  }
}

package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class SmtpSettingsTest {

  private static final Function<String, String> NO_ENV = name -> null;

  @Test
  void fedflowsKeysAreReadWithTheirDefaults() {
    SmtpSettings s = SmtpSettings.fromKeys(Map.of("smtp.enable", true, "smtp.server-host", "mail.example",
        "smtp.user", "me@example.org", "smtp.password", "pw", "smtp.receiver", "you@example.org"), NO_ENV);

    assertThat(s).isEqualTo(new SmtpSettings(true, "mail.example", 25, "me@example.org", "pw",
        List.of("you@example.org"), false, false, Duration.ofHours(1), 10));
  }

  @Test
  void keysWithoutThePrefixAndTextValuesWork() {
    SmtpSettings s = SmtpSettings.fromKeys(Map.of("enable", "true", "server-host", "h", "server-port", "2525",
        "receiver", "a@x, b@y", "min-interval", "10m", "max-numbers", "3", "starttls", "true"), NO_ENV);

    assertThat(s.serverPort()).isEqualTo(2525);
    assertThat(s.receivers()).containsExactly("a@x", "b@y");
    assertThat(s.minInterval()).isEqualTo(Duration.ofMinutes(10));
    assertThat(s.maxNumbers()).isEqualTo(3);
    assertThat(s.starttls()).isTrue();
  }

  @Test
  void thePortDefaultsFollowTheTransportSecurity() {
    Map<String, Object> base = Map.of("enable", true, "server-host", "h", "receiver", "a@x");

    assertThat(SmtpSettings.fromKeys(with(base, "tls", true), NO_ENV).serverPort()).isEqualTo(465);
    assertThat(SmtpSettings.fromKeys(with(base, "starttls", true), NO_ENV).serverPort()).isEqualTo(587);
  }

  @Test
  void thePasswordCanComeFromANamedEnvironmentVariable() {
    SmtpSettings s = SmtpSettings.fromKeys(Map.of("enable", true, "server-host", "h", "receiver", "a@x",
        "user", "me", "password-env", "BERTH_SMTP_PASSWORD"), name -> name.equals("BERTH_SMTP_PASSWORD") ? "s3cret" : null);

    assertThat(s.password()).isEqualTo("s3cret");
  }

  @Test
  void anUnsetPasswordVariableIsAnErrorNamingIt() {
    assertThatThrownBy(() -> SmtpSettings.fromKeys(Map.of("password-env", "NOPE"), NO_ENV))
        .hasMessage("smtp.password-env names NOPE, which is not set");
  }

  @Test
  void thePasswordNeverAppearsInTheTextForm() {
    SmtpSettings s = SmtpSettings.fromKeys(Map.of("enable", true, "server-host", "h", "receiver", "a@x",
        "user", "me", "password", "hunter2"), NO_ENV);

    assertThat(s.toString()).doesNotContain("hunter2").contains("password=****");
  }

  @Test
  void mistakesAreOneLineErrorsNamingTheKey() {
    assertThatThrownBy(() -> SmtpSettings.fromKeys(Map.of("smtp.server", "h"), NO_ENV))
        .hasMessageStartingWith("smtp.server is not a mail setting; the settings are smtp.enable,");
    assertThatThrownBy(() -> SmtpSettings.fromKeys(Map.of("enable", "yes"), NO_ENV))
        .hasMessage("smtp.enable must be true or false, got 'yes'");
    assertThatThrownBy(() -> SmtpSettings.fromKeys(Map.of("enable", true, "receiver", "a@x"), NO_ENV))
        .hasMessage("smtp.server-host is required when smtp.enable is true");
    assertThatThrownBy(() -> SmtpSettings.fromKeys(Map.of("enable", true, "server-host", "h"), NO_ENV))
        .hasMessage("smtp.receiver is required when smtp.enable is true");
    assertThatThrownBy(() -> SmtpSettings.fromKeys(
        Map.of("enable", true, "server-host", "h", "receiver", "a", "tls", true, "starttls", true), NO_ENV))
        .hasMessageContaining("exclude each other");
    assertThatThrownBy(() -> SmtpSettings.fromKeys(Map.of("min-interval", "soon"), NO_ENV))
        .hasMessageStartingWith("smtp.min-interval: 'soon' is not a duration");
  }

  @Test
  void mailIsOffUnlessEnabled() {
    assertThat(SmtpSettings.fromKeys(Map.of(), NO_ENV).enable()).isFalse();
    assertThat(SmtpSettings.disabled().enable()).isFalse();
  }

  private static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
    Map<String, Object> m = new java.util.HashMap<>(base);
    m.put(key, value);
    return m;
  }
}

package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.settings.InvalidValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmtpSettingsTest {

  private static final Function<String, String> NO_ENV = name -> null;

  @TempDir Path dir;

  private static SmtpSettings read(Map<String, ?> keys) {
    return SmtpKeys.TABLE.read(keys);
  }

  @Test
  void fedflowsKeysAreReadWithTheirDefaults() {
    SmtpSettings s = read(Map.of("smtp.enable", "true", "smtp.server-host", "mail.example",
        "smtp.user", "me@example.org", "smtp.password", "pw", "smtp.receiver", "you@example.org"));

    assertThat(s).isEqualTo(SmtpSettings.builder().enable(true).serverHost("mail.example").user("me@example.org")
        .password("pw").receivers(List.of("you@example.org")).build());
    assertThat(s.port()).isEqualTo(25);
    assertThat(s.minInterval()).isEqualTo(Duration.ofHours(1));
    assertThat(s.maxNumbers()).isEqualTo(10);
    assertThat(s.send()).isEqualTo(MailSend.GROUP);
  }

  @Test
  void textValuesAndAddressesSeparatedByCommasWork() {
    SmtpSettings s = read(Map.of("smtp.enable", "true", "smtp.server-host", "h", "smtp.server-port", "2525",
        "smtp.receiver", "a@x, b@y", "smtp.min-interval", "10m", "smtp.max-numbers", "3", "smtp.starttls", "true"));

    assertThat(s.port()).isEqualTo(2525);
    assertThat(s.receivers()).containsExactly("a@x", "b@y");
    assertThat(s.minInterval()).isEqualTo(Duration.ofMinutes(10));
    assertThat(s.maxNumbers()).isEqualTo(3);
    assertThat(s.starttls()).isTrue();
  }

  @Test
  void thePortDefaultsFollowTheTransportSecurity() {
    Map<String, Object> base = Map.of("smtp.enable", true, "smtp.server-host", "h", "smtp.receiver", "a@x");

    assertThat(read(with(base, "smtp.tls", true)).port()).isEqualTo(465);
    assertThat(read(with(base, "smtp.starttls", true)).port()).isEqualTo(587);
  }

  @Test
  void thePasswordCanComeFromANamedEnvironmentVariable() {
    SmtpSettings s = read(Map.of("smtp.enable", true, "smtp.server-host", "h", "smtp.receiver", "a@x",
        "smtp.user", "me", "smtp.password-env", "BERTH_SMTP_PASSWORD"));

    assertThat(s.password(name -> name.equals("BERTH_SMTP_PASSWORD") ? "s3cret" : null)).isEqualTo("s3cret");
  }

  @Test
  void thePasswordCanComeFromAFileOnlyItsOwnerMayReadAndIsNeverStoredOrShown() throws Exception {
    Path file = Files.writeString(dir.resolve("smtp-password"), "s3cret\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    SmtpSettings s = read(Map.of("smtp.enable", true, "smtp.server-host", "h", "smtp.receiver", "a@x",
        "smtp.user", "me", "smtp.password-file", file.toString()));

    assertThat(s.password(NO_ENV)).isEqualTo("s3cret");
    assertThat(s.toString()).doesNotContain("s3cret");
    assertThat(SmtpKeys.TABLE.stored(s)).containsEntry("smtp.password-file", file.toString())
        .doesNotContainValue("s3cret");
    assertThat(SmtpKeys.TABLE.shown(s).values()).doesNotContain("s3cret");
  }

  @Test
  void aPasswordFileOthersMayReadIsRefusedAsSshRefusesAnOpenKey() throws Exception {
    Path file = Files.writeString(dir.resolve("smtp-password"), "s3cret\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    SmtpSettings s = read(Map.of("smtp.user", "me", "smtp.password-file", file.toString()));

    assertThatThrownBy(() -> s.password(NO_ENV))
        .hasMessage("smtp.password-file: " + file + " is open to others (rw-r--r--); a secret's file is for its owner"
            + " alone: chmod 600 " + file)
        .message().doesNotContain("s3cret");
    assertThatThrownBy(() -> read(Map.of("smtp.user", "me", "smtp.password-file", dir.resolve("nope").toString()))
        .password(NO_ENV)).hasMessage("smtp.password-file: " + dir.resolve("nope") + " does not exist");
    assertThatThrownBy(() -> read(Map.of("smtp.password-env", "P", "smtp.password-file", file.toString())))
        .hasMessageContaining("exclude each other");
  }

  @Test
  void anUnsetPasswordVariableOrALoginWithoutPasswordIsAnErrorNamingIt() {
    assertThatThrownBy(() -> read(Map.of("smtp.password-env", "NOPE")).password(NO_ENV))
        .hasMessage("smtp.password-env names NOPE, which is not set");
    assertThatThrownBy(() -> read(Map.of("smtp.user", "me")).password(NO_ENV))
        .hasMessageStartingWith("smtp.user is set but no password");
  }

  @Test
  void thePasswordNeverAppearsInTheTextFormNorInWhatIsStored() {
    SmtpSettings s = read(Map.of("smtp.enable", true, "smtp.server-host", "h", "smtp.receiver", "a@x",
        "smtp.user", "me", "smtp.password", "hunter2"));

    assertThat(s.toString()).doesNotContain("hunter2").contains("password=****");
    assertThat(SmtpKeys.TABLE.stored(s)).doesNotContainKey("smtp.password").doesNotContainValue("hunter2");
    assertThat(SmtpKeys.TABLE.shown(s)).containsEntry("smtp.password", "****");
  }

  @Test
  void mistakesAreOneLineErrorsNamingTheKey() {
    assertThatThrownBy(() -> read(Map.of("smtp.server", "h"))).isInstanceOfSatisfying(InvalidValue.class,
        e -> assertThat(e.path()).isEqualTo("smtp.server")).hasMessageContaining("did you mean 'smtp.server-host'?");
    assertThatThrownBy(() -> read(Map.of("smtp.enable", "maybe")))
        .isInstanceOfSatisfying(InvalidValue.class, e -> assertThat(e.path()).isEqualTo("smtp.enable"))
        .hasMessage("must be true or false but was 'maybe'");
    assertThatThrownBy(() -> read(Map.of("smtp.enable", true, "smtp.receiver", "a@x")))
        .hasMessage("is required when smtp.enable is true");
    assertThatThrownBy(() -> read(Map.of("smtp.enable", true, "smtp.server-host", "h")))
        .isInstanceOfSatisfying(InvalidValue.class, e -> assertThat(e.path()).isEqualTo("smtp.receiver"));
    assertThatThrownBy(() -> read(Map.of("smtp.enable", true, "smtp.server-host", "h", "smtp.receiver", "a",
        "smtp.tls", true, "smtp.starttls", true))).hasMessageContaining("exclude each other");
    assertThatThrownBy(() -> read(Map.of("smtp.min-interval", "soon"))).hasMessageStartingWith("'soon' is not a duration");
  }

  @Test
  void mailIsOffUnlessEnabled() {
    assertThat(read(Map.of()).enable()).isFalse();
    assertThat(SmtpSettings.disabled().enable()).isFalse();
    assertThat(SmtpSettings.disabled()).isEqualTo(SmtpKeys.TABLE.defaults());
  }

  private static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
    Map<String, Object> m = new HashMap<>(base);
    m.put(key, value);
    return m;
  }
}

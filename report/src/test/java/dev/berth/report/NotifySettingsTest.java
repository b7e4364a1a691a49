package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NotifySettingsTest {

  @Test
  void aWebhookAndItsEventsAreReadAndBecomeTheNotifiersSettings() {
    NotifySettings n = NotifySettings.TABLE.read(Map.of("notify.webhook", "https://hooks.example/T/1",
        "notify.on", List.of("task-failed", "group-end")));

    assertThat(n).isEqualTo(new NotifySettings(Optional.of("https://hooks.example/T/1"),
        List.of(WebhookEvent.TASK_FAILED, WebhookEvent.GROUP_END)));
    assertThat(n.settings().orElseThrow().wants(WebhookEvent.RUN_END)).isFalse();
    assertThat(NotifySettings.TABLE.topLevel()).isTrue();
  }

  @Test
  void withoutAWebhookNothingIsPosted() {
    assertThat(NotifySettings.TABLE.defaults()).isEqualTo(NotifySettings.NONE);
    assertThat(NotifySettings.NONE.settings()).isEmpty();
  }

  @Test
  void anAddressThatIsNotHttpAndAnUnknownEventAreRefused() {
    assertThatThrownBy(() -> NotifySettings.TABLE.read(Map.of("notify.webhook", "ftp://x/y")))
        .hasMessage("must be an http:// or https:// URL with a host, not one starting with 'ftp:'");
    assertThatThrownBy(() -> NotifySettings.TABLE.read(Map.of("notify.on", "run-ended")))
        .hasMessageStartingWith("'run-ended' is not a webhook event; use run-end, task-failed, group-end");
  }

  @Test
  void theWebhookAddressIsASecretThatIsNeverStoredAndShownMasked() {
    NotifySettings n = NotifySettings.TABLE.read(Map.of("notify.webhook", "https://u:p@hooks.example/T/secret?k=v"));

    assertThat(NotifySettings.TABLE.stored(n)).doesNotContainKey("notify.webhook")
        .allSatisfy((k, v) -> assertThat(String.valueOf(v)).doesNotContain("secret"));
    assertThat(NotifySettings.TABLE.shown(n)).containsEntry("notify.webhook", "****");
  }

  @Test
  void urlEnvReadsTheAddressFromTheEnvironmentAndIsKeptOutOfTasks() {
    NotifySettings n = NotifySettings.TABLE.read(Map.of("notify.url-env", "HOOK_URL"));

    assertThat(n.settings(Map.of("HOOK_URL", "https://hooks.example/T/1")::get).orElseThrow().url())
        .hasToString("https://hooks.example/T/1");
    assertThat(NotifySettings.TABLE.stored(n)).containsEntry("notify.url-env", Optional.of("HOOK_URL"));
    assertThatThrownBy(() -> n.settings(name -> null)).hasMessage("notify.url-env names HOOK_URL, which is not set");
    assertThatThrownBy(() -> n.settings(Map.of("HOOK_URL", "ftp://secret")::get))
        .hasMessageStartingWith("notify.url-env: the value of HOOK_URL must be an http:// or https:// URL")
        .message().doesNotContain("secret");
  }

  @Test
  void urlFileReadsTheAddressFromAFileOnlyItsOwnerMayReadAndStoresOnlyItsName(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("hook"), "https://hooks.example/T/secret\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
    NotifySettings n = NotifySettings.TABLE.read(Map.of("notify.url-file", file.toString()));

    assertThat(n.settings(name -> null).orElseThrow().url()).hasToString("https://hooks.example/T/secret");
    assertThat(NotifySettings.TABLE.stored(n)).containsEntry("notify.url-file", Optional.of(file.toString()))
        .allSatisfy((k, v) -> assertThat(String.valueOf(v)).doesNotContain("hooks.example"));

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw----"));
    assertThatThrownBy(() -> n.settings(name -> null))
        .hasMessageStartingWith("notify.url-file: " + file + " is open to others (rw-rw----)")
        .message().doesNotContain("hooks.example").doesNotContain("//secret");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    Files.writeString(file, "ftp://secret");
    assertThatThrownBy(() -> n.settings(name -> null))
        .hasMessageStartingWith("notify.url-file: the text of " + file + " must be an http:// or https:// URL")
        .message().doesNotContain("hooks.example").doesNotContain("//secret");
  }

  @Test
  void aWebhookAndAUrlEnvExcludeEachOther() {
    assertThatThrownBy(() -> NotifySettings.TABLE.read(Map.of("notify.webhook", "https://h/x", "notify.url-env", "H")))
        .hasMessageContaining("exclude each other");
  }
}

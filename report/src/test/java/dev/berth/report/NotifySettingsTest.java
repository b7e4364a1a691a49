package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

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
        .hasMessage("'ftp://x/y' must be an http:// or https:// URL");
    assertThatThrownBy(() -> NotifySettings.TABLE.read(Map.of("notify.on", "run-ended")))
        .hasMessageStartingWith("'run-ended' is not a webhook event; use run-end, task-failed, group-end");
  }
}

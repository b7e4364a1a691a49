package dev.berth.report;

import dev.berth.core.settings.ConfigKey;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.SettingsTable;
import dev.berth.core.settings.ValueParser;
import dev.berth.core.settings.ValueText;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a run's events are posted: a spec's top-level {@code notify: {webhook, on}}.
 *
 * @param webhook the {@code http} or {@code https} address events are posted to, if any ({@code notify.webhook})
 * @param on the events posted; none means {@code run-end} only ({@code notify.on})
 */
public record NotifySettings(Optional<String> webhook, List<WebhookEvent> on) {

  /** No webhook. */
  public static final NotifySettings NONE = new NotifySettings(Optional.empty(), List.of());

  private static final ValueParser<Optional<String>> URL = value -> {
    String text = Parsers.TEXT.parse(value);
    URI uri;
    try {
      uri = URI.create(text);
    } catch (IllegalArgumentException e) {
      throw new InvalidValue("'" + text + "' is not a URL");
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
      throw new InvalidValue("'" + text + "' must be an http:// or https:// URL");
    }
    return Optional.of(text);
  };

  private static final ValueParser<List<WebhookEvent>> EVENTS = value -> {
    List<WebhookEvent> events = new ArrayList<>();
    for (String name : Parsers.TEXT_LIST.parse(value)) {
      try {
        events.add(WebhookEvent.parse(name));
      } catch (IllegalArgumentException e) {
        throw new InvalidValue(e.getMessage());
      }
    }
    return List.copyOf(events);
  };

  /** The keys, which a spec writes at its top level. */
  public static final SettingsTable<NotifySettings, Builder> TABLE = SettingsTable.of("notify", NotifySettings.class,
      Builder::new, Builder::build, List.of(
          ConfigKey.of("notify.webhook", "URL", URL, Builder::webhook, NotifySettings::webhook, w -> w.orElse(""),
              "where events are posted, e.g. a Slack incoming webhook"),
          ConfigKey.of("notify.on", "list of events", EVENTS, Builder::on, NotifySettings::on, ValueText::list,
              "which events: run-end, task-failed, group-end; none = run-end")))
      .atTopLevel();

  /** Copies. */
  public NotifySettings {
    Objects.requireNonNull(webhook, "webhook");
    on = List.copyOf(on);
  }

  /** The webhook's settings, with the default retries, when a webhook is set. */
  public Optional<WebhookSettings> settings() {
    return webhook.map(url -> WebhookSettings.of(url, on.stream().map(WebhookEvent::key).toList()));
  }

  /** Mutable builder for {@link #TABLE}. */
  public static final class Builder {
    private Optional<String> webhook = Optional.empty();
    private List<WebhookEvent> on = List.of();

    /** {@code notify.webhook}. */
    public Builder webhook(Optional<String> v) {
      webhook = v;
      return this;
    }

    /** {@code notify.on}. */
    public Builder on(List<WebhookEvent> v) {
      on = v;
      return this;
    }

    /** Builds. */
    public NotifySettings build() {
      return new NotifySettings(webhook, on);
    }
  }
}

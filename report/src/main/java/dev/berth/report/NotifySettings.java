package dev.berth.report;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.ValueParser;
import dev.berth.core.settings.ValueText;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Where a run's events are posted: a spec's top-level {@code notify: {webhook, url-env, url-file, on}}.
 *
 * <p>A webhook's address often holds a secret (a token in its path or query, {@code user:pass@}), so
 * {@code notify.webhook} is a secret key: never journaled, shown as {@code ****}. {@code notify.url-env}
 * names an environment variable holding the address instead, which a resumed run reads again and no
 * task inherits; {@code notify.url-file} names a file only its owner may read that holds it.
 *
 * @param webhook the {@code http} or {@code https} address events are posted to, if any ({@code notify.webhook})
 * @param urlEnv the environment variable holding the address, if any ({@code notify.url-env})
 * @param urlFile the file holding the address, if any ({@code notify.url-file})
 * @param on the events posted; none means {@code run-end} only ({@code notify.on})
 */
public record NotifySettings(Optional<String> webhook, Optional<String> urlEnv, Optional<String> urlFile,
    List<WebhookEvent> on) {

  /** No webhook. */
  public static final NotifySettings NONE = new NotifySettings(Optional.empty(), Optional.empty(), List.of());

  private static final ValueParser<Optional<String>> FILE = value -> {
    String name = Parsers.TEXT.parse(value);
    return name.isBlank() ? Optional.empty() : Optional.of(name);
  };

  private static final ValueParser<Optional<String>> URL = value -> Optional.of(checkedUrl(Parsers.TEXT.parse(value)));

  private static final ValueParser<Optional<String>> VARIABLE = value -> {
    String name = Parsers.TEXT.parse(value);
    if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new InvalidValue("'" + name + "' is not an environment variable name");
    }
    return Optional.of(name);
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
              "where events are posted, e.g. a Slack incoming webhook; never journaled (prefer url-env)").asSecret(),
          ConfigKey.of("notify.url-env", "text", VARIABLE, Builder::urlEnv, NotifySettings::urlEnv,
              w -> w.orElse(""), "environment variable that holds the webhook URL; tasks do not inherit it")
              .asSecretVariable().asJournaledWhenSet(),
          ConfigKey.of("notify.url-file", "text", FILE, Builder::urlFile, NotifySettings::urlFile,
              w -> w.orElse(""), "file that holds the webhook URL, readable by its owner only (chmod 600)")
              .asJournaledWhenSet(),
          ConfigKey.of("notify.on", "list of events", EVENTS, Builder::on, NotifySettings::on, ValueText::list,
              "which events: run-end, task-failed, group-end; none = run-end")))
      .atTopLevel();

  /** Copies. */
  public NotifySettings {
    Objects.requireNonNull(webhook, "webhook");
    Objects.requireNonNull(urlEnv, "urlEnv");
    Objects.requireNonNull(urlFile, "urlFile");
    if (Stream.of(webhook, urlEnv, urlFile).filter(Optional::isPresent).count() > 1) {
      throw new IllegalArgumentException("notify.webhook, notify.url-env and notify.url-file exclude each other;"
          + " keep one");
    }
    on = List.copyOf(on);
  }

  /** A webhook given by its address or by a variable that holds it. */
  public NotifySettings(Optional<String> webhook, Optional<String> urlEnv, List<WebhookEvent> on) {
    this(webhook, urlEnv, Optional.empty(), on);
  }

  /** A webhook given by its address. */
  public NotifySettings(Optional<String> webhook, List<WebhookEvent> on) {
    this(webhook, Optional.empty(), on);
  }

  /**
   * The webhook's settings, with the default retries, when a webhook is set.
   *
   * @param env looks up an environment variable, e.g. {@code System::getenv}
   * @throws IllegalArgumentException when {@code url-env} names a variable that is unset or not a URL,
   *     or {@code url-file} a file that cannot be read, others may read, or does not hold a URL
   */
  public Optional<WebhookSettings> settings(Function<String, String> env) {
    Optional<String> url = webhook;
    if (urlEnv.isPresent()) {
      String value = env.apply(urlEnv.get());
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException("notify.url-env names " + urlEnv.get() + ", which is not set");
      }
      try {
        url = Optional.of(checkedUrl(value.strip()));
      } catch (InvalidValue e) {
        throw new IllegalArgumentException("notify.url-env: the value of " + urlEnv.get() + " " + e.rule());
      }
    }
    if (urlFile.isPresent()) {
      String value = SecretFile.read("notify.url-file", urlFile.get());
      try {
        url = Optional.of(checkedUrl(value.strip()));
      } catch (InvalidValue e) {
        throw new IllegalArgumentException("notify.url-file: the text of " + urlFile.get() + " " + e.rule());
      }
    }
    return url.map(u -> WebhookSettings.of(u, on.stream().map(WebhookEvent::key).toList()));
  }

  /** The webhook's settings when given by its address (no {@code url-env}, no {@code url-file}). */
  public Optional<WebhookSettings> settings() {
    return settings(name -> null);
  }

  /** The text when it is an http or https URL; the message never repeats it, since it may hold a secret. */
  private static String checkedUrl(String text) {
    URI uri;
    try {
      uri = URI.create(text);
    } catch (IllegalArgumentException e) {
      throw new InvalidValue("is not a URL (not repeated here, as it may hold a secret)");
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
      throw new InvalidValue("must be an http:// or https:// URL with a host, not one starting with '"
          + (uri.getScheme() == null ? "" : uri.getScheme() + ":") + "'");
    }
    return text;
  }

  /** Mutable builder for {@link #TABLE}. */
  public static final class Builder {
    private Optional<String> webhook = Optional.empty();
    private Optional<String> urlEnv = Optional.empty();
    private Optional<String> urlFile = Optional.empty();
    private List<WebhookEvent> on = List.of();

    /** {@code notify.webhook}. */
    public Builder webhook(Optional<String> v) {
      webhook = v;
      return this;
    }

    /** {@code notify.url-env}. */
    public Builder urlEnv(Optional<String> v) {
      urlEnv = v;
      return this;
    }

    /** {@code notify.url-file}. */
    public Builder urlFile(Optional<String> v) {
      urlFile = v;
      return this;
    }

    /** {@code notify.on}. */
    public Builder on(List<WebhookEvent> v) {
      on = v;
      return this;
    }

    /** Builds. */
    public NotifySettings build() {
      return new NotifySettings(webhook, urlEnv, urlFile, on);
    }
  }
}

package dev.berth.report;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Where to POST notifications and which ones.
 *
 * @param url an {@code http} or {@code https} address, e.g. a Slack incoming webhook
 * @param events the events to post; never empty
 * @param tries how many times a post is tried before it is given up (3 by default)
 * @param firstDelay the wait before the second try; each later wait doubles it (1s by default)
 * @param timeout how long one try may take (10s by default)
 */
public record WebhookSettings(URI url, Set<WebhookEvent> events, int tries, Duration firstDelay, Duration timeout) {

  /** Checks every part. */
  public WebhookSettings {
    if (url == null || url.getHost() == null
        || !("http".equalsIgnoreCase(url.getScheme()) || "https".equalsIgnoreCase(url.getScheme()))) {
      throw new IllegalArgumentException("webhook url must be an http or https address with a host");
    }
    if (events == null || events.isEmpty()) {
      throw new IllegalArgumentException("webhook events must name at least one of run-end, task-failed, group-end");
    }
    events = Set.copyOf(events);
    if (tries < 1) {
      throw new IllegalArgumentException("webhook tries must be 1 or more, got " + tries);
    }
    if (firstDelay.isNegative() || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("webhook delays must not be negative and the timeout must be positive");
    }
  }

  /**
   * Settings with the default retries: 3 tries, waiting 1s then 2s, 10s per try.
   *
   * @param url the address
   * @param events spec names such as {@code run-end}; empty means {@code run-end} only
   * @throws IllegalArgumentException in one line naming the rule
   */
  public static WebhookSettings of(String url, Collection<String> events) {
    URI uri;
    try {
      uri = new URI(url == null ? "" : url.strip());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("webhook url is not an address (not repeated here, as it may hold a secret)");
    }
    Set<WebhookEvent> set = EnumSet.noneOf(WebhookEvent.class);
    events.forEach(e -> set.add(WebhookEvent.parse(e)));
    if (set.isEmpty()) {
      set.add(WebhookEvent.RUN_END);
    }
    return new WebhookSettings(uri, set, 3, Duration.ofSeconds(1), Duration.ofSeconds(10));
  }

  /** Whether this event is posted. */
  public boolean wants(WebhookEvent event) {
    return events.contains(event);
  }

  /** The address requests go to: {@link #url()} without its {@code user:pass@}, which {@link #authorization} carries. */
  public URI target() {
    if (url.getRawUserInfo() == null) {
      return url;
    }
    try {
      return new URI(url.getScheme(), null, url.getHost(), url.getPort(), url.getPath(), url.getQuery(),
          url.getFragment());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("webhook url: " + e.getReason(), e);
    }
  }

  /** The {@code Authorization} header for a URL's {@code user:pass@}: HTTP Basic, as a browser or curl sends it. */
  public Optional<String> authorization() {
    String userInfo = url.getUserInfo();
    if (userInfo == null || userInfo.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8)));
  }

  /** The address without its user, path and query, which often hold a secret; for messages and logs. */
  public String shownUrl() {
    return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort()) + "/…";
  }
}

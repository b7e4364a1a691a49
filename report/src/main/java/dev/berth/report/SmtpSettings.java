package dev.berth.report;

import dev.berth.core.units.DurationText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Mail settings under fedflow's keys: {@code smtp.enable}, {@code smtp.server-host}, {@code smtp.server-port},
 * {@code smtp.user}, {@code smtp.password}, {@code smtp.receiver}, plus {@code smtp.tls} (TLS from the first
 * byte, usually port 465), {@code smtp.starttls} (upgrade a plain connection, usually port 587; required once
 * asked for, never silently skipped), {@code smtp.min-interval} (default 1h), {@code smtp.max-numbers}
 * (default 10, 0 for no limit) and {@code smtp.password-env}, the name of an environment variable holding the
 * password so that it need not be written in a file.
 *
 * @param enable whether mail is sent at all
 * @param serverHost the SMTP server
 * @param serverPort its port; defaults to 465 with {@code tls}, 587 with {@code starttls}, else 25
 * @param user login name, or null to send without logging in; also the sender when it is an address
 * @param password login password, or null
 * @param receivers addresses to send to ({@code smtp.receiver}, one or several separated by commas)
 * @param tls implicit TLS
 * @param starttls STARTTLS, required
 * @param minInterval least time between two mails of the same kind
 * @param maxNumbers most mails in a run, 0 for no limit
 */
public record SmtpSettings(
    boolean enable,
    String serverHost,
    int serverPort,
    String user,
    String password,
    List<String> receivers,
    boolean tls,
    boolean starttls,
    Duration minInterval,
    int maxNumbers) {

  /** Every key this record reads, without the {@code smtp.} prefix. */
  public static final Set<String> KEYS = Set.of("enable", "server-host", "server-port", "user", "password",
      "password-env", "receiver", "tls", "starttls", "min-interval", "max-numbers");

  /** Checks the settings that matter once mail is enabled. */
  public SmtpSettings {
    receivers = List.copyOf(receivers);
    if (minInterval == null || minInterval.isNegative()) {
      throw new IllegalArgumentException("smtp.min-interval must be a duration of 0 or more, e.g. 1h");
    }
    if (maxNumbers < 0) {
      throw new IllegalArgumentException("smtp.max-numbers must be 0 (no limit) or more, got " + maxNumbers);
    }
    if (enable) {
      if (serverHost == null || serverHost.isBlank()) {
        throw new IllegalArgumentException("smtp.server-host is required when smtp.enable is true");
      }
      if (receivers.isEmpty()) {
        throw new IllegalArgumentException("smtp.receiver is required when smtp.enable is true");
      }
      if (serverPort < 1 || serverPort > 65535) {
        throw new IllegalArgumentException("smtp.server-port must be between 1 and 65535, got " + serverPort);
      }
      if (tls && starttls) {
        throw new IllegalArgumentException("smtp.tls and smtp.starttls exclude each other; choose one");
      }
      if (user != null && password == null) {
        throw new IllegalArgumentException("smtp.user is set but no password: set smtp.password or smtp.password-env");
      }
    }
  }

  /** Mail switched off. */
  public static SmtpSettings disabled() {
    return new SmtpSettings(false, null, 25, null, null, List.of(), false, false, Duration.ofHours(1), 10);
  }

  /**
   * Reads the settings from configuration keys, with or without the {@code smtp.} prefix. Values may be
   * strings or YAML scalars; {@code receiver} may also be a list.
   *
   * @param env looks up an environment variable, for {@code smtp.password-env}; e.g. {@code System::getenv}
   * @throws IllegalArgumentException in one line naming the key and the rule
   */
  public static SmtpSettings fromKeys(Map<String, ?> keys, Function<String, String> env) {
    Map<String, Object> k = new java.util.TreeMap<>();
    keys.forEach((name, value) -> {
      String bare = name.startsWith("smtp.") ? name.substring(5) : name;
      if (!KEYS.contains(bare)) {
        throw new IllegalArgumentException("smtp." + bare + " is not a mail setting; the settings are smtp."
            + String.join(", smtp.", new TreeSet<>(KEYS)));
      }
      k.put(bare, value);
    });
    boolean tls = bool(k, "tls", false);
    boolean starttls = bool(k, "starttls", false);
    int port = k.containsKey("server-port") ? integer(k, "server-port") : tls ? 465 : starttls ? 587 : 25;
    String password = text(k, "password");
    String passwordEnv = text(k, "password-env");
    if (passwordEnv != null) {
      if (password != null) {
        throw new IllegalArgumentException("smtp.password and smtp.password-env exclude each other; keep one");
      }
      password = env.apply(passwordEnv);
      if (password == null || password.isEmpty()) {
        throw new IllegalArgumentException("smtp.password-env names " + passwordEnv + ", which is not set");
      }
    }
    Duration interval = k.containsKey("min-interval") ? duration(k.get("min-interval")) : Duration.ofHours(1);
    int max = k.containsKey("max-numbers") ? integer(k, "max-numbers") : 10;
    return new SmtpSettings(bool(k, "enable", false), text(k, "server-host"), port, text(k, "user"), password,
        receivers(k.get("receiver")), tls, starttls, interval, max);
  }

  /** The settings without the password, which must not reach a log. */
  @Override
  public String toString() {
    return "SmtpSettings[enable=" + enable + ", serverHost=" + serverHost + ", serverPort=" + serverPort
        + ", user=" + user + ", password=" + (password == null ? "none" : "****") + ", receivers=" + receivers
        + ", tls=" + tls + ", starttls=" + starttls + ", minInterval=" + minInterval + ", maxNumbers=" + maxNumbers
        + "]";
  }

  private static boolean bool(Map<String, Object> k, String key, boolean dflt) {
    Object v = k.get(key);
    if (v == null) {
      return dflt;
    }
    String s = v.toString().strip().toLowerCase(Locale.ROOT);
    if (s.equals("true") || s.equals("false")) {
      return s.equals("true");
    }
    throw new IllegalArgumentException("smtp." + key + " must be true or false, got '" + v + "'");
  }

  private static int integer(Map<String, Object> k, String key) {
    Object v = k.get(key);
    try {
      return Integer.parseInt(v.toString().strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("smtp." + key + " must be a whole number, got '" + v + "'");
    }
  }

  private static String text(Map<String, Object> k, String key) {
    Object v = k.get(key);
    return v == null || v.toString().isBlank() ? null : v.toString().strip();
  }

  private static Duration duration(Object v) {
    if (v instanceof Duration d) {
      return d;
    }
    try {
      return DurationText.parse(v == null ? null : v.toString());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("smtp.min-interval: " + e.getMessage());
    }
  }

  private static List<String> receivers(Object v) {
    List<String> out = new ArrayList<>();
    if (v instanceof Collection<?> c) {
      c.forEach(x -> split(String.valueOf(x), out));
    } else if (v != null) {
      split(v.toString(), out);
    }
    return out;
  }

  private static void split(String s, List<String> out) {
    for (String part : s.split(",")) {
      if (!part.isBlank()) {
        out.add(part.strip());
      }
    }
  }
}

package dev.berth.core.model;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Mail settings, named after fedflow's {@code smtp.*} keys plus TLS, STARTTLS and a password taken
 * from an environment variable. Only carried here; the report module sends the mail and checks
 * the settings that depend on each other (a host and a receiver once enabled).
 *
 * @param enable whether reports are mailed ({@code smtp.enable})
 * @param serverHost SMTP server ({@code smtp.server-host})
 * @param serverPort SMTP port, 0 for the default of the chosen security ({@code smtp.server-port})
 * @param user login user and sender ({@code smtp.user})
 * @param password login password ({@code smtp.password})
 * @param passwordEnv environment variable holding the password ({@code smtp.password-env})
 * @param receivers who gets the mail ({@code smtp.receiver})
 * @param tls implicit TLS ({@code smtp.tls})
 * @param starttls STARTTLS ({@code smtp.starttls})
 * @param minInterval least time between two mails of the same kind ({@code smtp.min-interval})
 * @param maxNumbers most mails in one run, 0 = no limit ({@code smtp.max-numbers})
 * @param send which reports are mailed: {@code group}, {@code run} or {@code both} ({@code smtp.send})
 */
public record SmtpConfig(
    boolean enable, String serverHost, int serverPort, String user, String password, String passwordEnv,
    List<String> receivers, boolean tls, boolean starttls, Duration minInterval, int maxNumbers, String send) {

  /** fedflow's defaults, mail off. */
  public static final SmtpConfig DEFAULTS =
      new SmtpConfig(false, "", 0, "", "", "", List.of(), false, false, Duration.ofHours(1), 10, "group");

  /** Validates the values that stand alone. */
  public SmtpConfig {
    Objects.requireNonNull(serverHost, "serverHost");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(passwordEnv, "passwordEnv");
    receivers = List.copyOf(receivers);
    if (serverPort < 0 || serverPort > 65535) {
      throw new IllegalArgumentException("smtp.server-port must be between 1 and 65535 but was " + serverPort);
    }
    if (minInterval.isNegative()) {
      throw new IllegalArgumentException("smtp.min-interval must be >= 0 but was " + minInterval);
    }
    if (maxNumbers < 0) {
      throw new IllegalArgumentException("smtp.max-numbers must be >= 0 but was " + maxNumbers);
    }
    if (!List.of("group", "run", "both").contains(send)) {
      throw new IllegalArgumentException("smtp.send must be group, run or both but was " + send);
    }
  }

  /** Whether group reports are mailed. */
  public boolean mailsGroups() {
    return enable && !send.equals("run");
  }

  /** Whether the run report is mailed. */
  public boolean mailsRun() {
    return enable && !send.equals("group");
  }

  /** This configuration with one field changed, by its key without the {@code smtp.} prefix. */
  @SuppressWarnings("unchecked")
  public SmtpConfig with(String key, Object v) {
    switch (key) {
      case "enable":
        return new SmtpConfig((Boolean) v, serverHost, serverPort, user, password, passwordEnv, receivers, tls, starttls, minInterval, maxNumbers, send);
      case "server-host":
        return new SmtpConfig(enable, (String) v, serverPort, user, password, passwordEnv, receivers, tls, starttls, minInterval, maxNumbers, send);
      case "server-port":
        return new SmtpConfig(enable, serverHost, (Integer) v, user, password, passwordEnv, receivers, tls, starttls, minInterval, maxNumbers, send);
      case "user":
        return new SmtpConfig(enable, serverHost, serverPort, (String) v, password, passwordEnv, receivers, tls, starttls, minInterval, maxNumbers, send);
      case "password":
        return new SmtpConfig(enable, serverHost, serverPort, user, (String) v, passwordEnv, receivers, tls, starttls, minInterval, maxNumbers, send);
      case "password-env":
        return new SmtpConfig(enable, serverHost, serverPort, user, password, (String) v, receivers, tls, starttls, minInterval, maxNumbers, send);
      case "receiver":
        return new SmtpConfig(enable, serverHost, serverPort, user, password, passwordEnv, (List<String>) v, tls, starttls, minInterval, maxNumbers, send);
      case "tls":
        return new SmtpConfig(enable, serverHost, serverPort, user, password, passwordEnv, receivers, (Boolean) v, starttls, minInterval, maxNumbers, send);
      case "starttls":
        return new SmtpConfig(enable, serverHost, serverPort, user, password, passwordEnv, receivers, tls, (Boolean) v, minInterval, maxNumbers, send);
      case "min-interval":
        return new SmtpConfig(enable, serverHost, serverPort, user, password, passwordEnv, receivers, tls, starttls, (Duration) v, maxNumbers, send);
      case "max-numbers":
        return new SmtpConfig(enable, serverHost, serverPort, user, password, passwordEnv, receivers, tls, starttls, minInterval, (Integer) v, send);
      case "send":
        return new SmtpConfig(enable, serverHost, serverPort, user, password, passwordEnv, receivers, tls, starttls, minInterval, maxNumbers, (String) v);
      default:
        throw new IllegalArgumentException("smtp." + key + " is not a mail setting");
    }
  }

  /** The settings without the password, which must not reach a log or a report. */
  @Override
  public String toString() {
    return "SmtpConfig[enable=" + enable + ", serverHost=" + serverHost + ", serverPort=" + serverPort + ", user="
        + user + ", password=" + (password.isEmpty() ? "none" : "****") + ", passwordEnv=" + passwordEnv
        + ", receivers=" + receivers + ", tls=" + tls + ", starttls=" + starttls + ", minInterval=" + minInterval
        + ", maxNumbers=" + maxNumbers + ", send=" + send + "]";
  }
}

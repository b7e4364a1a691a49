package dev.berth.report;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Mail settings under fedflow's {@code smtp.*} keys ({@link SmtpKeys#TABLE}), plus {@code smtp.tls}
 * (TLS from the first byte, usually port 465), {@code smtp.starttls} (upgrade a plain connection,
 * usually port 587; required once asked for, never silently skipped), {@code smtp.password-env} (an
 * environment variable holding the password, so that it need not be written in a file),
 * {@code smtp.password-file} (a file only its owner may read that holds it) and {@code smtp.send}. Empty text means unset. The password never reaches a log or a journal.
 *
 * @param enable whether mail is sent at all
 * @param serverHost the SMTP server
 * @param serverPort its port; 0 for 465 with {@code tls}, 587 with {@code starttls}, else 25
 * @param user login name and sender when it is an address; empty to send without logging in
 * @param password login password, or empty
 * @param passwordEnv the environment variable holding the password, or empty
 * @param passwordFile the file holding the password, or empty
 * @param receivers addresses to send to
 * @param tls implicit TLS
 * @param starttls STARTTLS, required
 * @param minInterval least time between two mails of the same kind
 * @param maxNumbers most mails in a run, 0 for no limit
 * @param send which reports are mailed
 */
public record SmtpSettings(
    boolean enable, String serverHost, int serverPort, String user, String password, String passwordEnv,
    String passwordFile, List<String> receivers, boolean tls, boolean starttls, Duration minInterval, int maxNumbers, MailSend send) {

  /** fedflow's defaults, mail off. */
  public static final SmtpSettings DEFAULTS = builder().build();

  /** Checks every value and, once mail is enabled, what it needs; each problem names its key. */
  public SmtpSettings {
    Objects.requireNonNull(serverHost, "serverHost");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(passwordEnv, "passwordEnv");
    Objects.requireNonNull(passwordFile, "passwordFile");
    Objects.requireNonNull(send, "send");
    receivers = List.copyOf(receivers);
    if (serverPort < 0 || serverPort > 65535) {
      throw new IllegalArgumentException("smtp.server-port must be between 1 and 65535 (0 for the default) but was "
          + serverPort);
    }
    if (minInterval == null || minInterval.isNegative()) {
      throw new IllegalArgumentException("smtp.min-interval must be a duration of 0 or more, e.g. 1h");
    }
    if (maxNumbers < 0) {
      throw new IllegalArgumentException("smtp.max-numbers must be 0 (no limit) or more but was " + maxNumbers);
    }
    if ((password.isEmpty() ? 0 : 1) + (passwordEnv.isEmpty() ? 0 : 1) + (passwordFile.isEmpty() ? 0 : 1) > 1) {
      throw new IllegalArgumentException("smtp.password, smtp.password-env and smtp.password-file exclude each other;"
          + " keep one");
    }
    if (enable) {
      if (serverHost.isBlank()) {
        throw new IllegalArgumentException("smtp.server-host is required when smtp.enable is true");
      }
      if (receivers.isEmpty()) {
        throw new IllegalArgumentException("smtp.receiver is required when smtp.enable is true");
      }
      if (tls && starttls) {
        throw new IllegalArgumentException("smtp.starttls and smtp.tls exclude each other; choose one");
      }
    }
  }

  /** Mail switched off. */
  public static SmtpSettings disabled() {
    return DEFAULTS;
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings. */
  public Builder toBuilder() {
    return new Builder().enable(enable).serverHost(serverHost).serverPort(serverPort).user(user).password(password)
        .passwordEnv(passwordEnv).passwordFile(passwordFile).receivers(receivers).tls(tls).starttls(starttls).minInterval(minInterval)
        .maxNumbers(maxNumbers).send(send);
  }

  /** The port connected to: the one set, else 465 with TLS, 587 with STARTTLS, 25 otherwise. */
  public int port() {
    return serverPort > 0 ? serverPort : tls ? 465 : starttls ? 587 : 25;
  }

  /** The login name, when mail is sent logged in. */
  public Optional<String> login() {
    return user.isBlank() ? Optional.empty() : Optional.of(user.strip());
  }

  /**
   * The login password: {@code smtp.password}, the variable {@code smtp.password-env} names, or the
   * text of the file {@code smtp.password-file} names.
   *
   * @param env looks up an environment variable, e.g. {@code System::getenv}
   * @throws IllegalArgumentException when the variable is not set, the file cannot be read or others
   *     may read it, or a login has no password
   */
  public String password(Function<String, String> env) {
    String resolved = password;
    if (!passwordEnv.isEmpty()) {
      resolved = env.apply(passwordEnv);
      if (resolved == null || resolved.isEmpty()) {
        throw new IllegalArgumentException("smtp.password-env names " + passwordEnv + ", which is not set");
      }
    }
    if (!passwordFile.isEmpty()) {
      resolved = SecretFile.read("smtp.password-file", passwordFile);
    }
    if (login().isPresent() && resolved.isEmpty()) {
      throw new IllegalArgumentException("smtp.user is set but no password: set smtp.password-file, smtp.password-env"
          + " or smtp.password");
    }
    return resolved;
  }

  /** Whether group reports are mailed. */
  public boolean mailsGroups() {
    return enable && send != MailSend.RUN;
  }

  /** Whether the run report is mailed. */
  public boolean mailsRun() {
    return enable && send != MailSend.GROUP;
  }

  /** The settings without the password, which must not reach a log or a report. */
  @Override
  public String toString() {
    return "SmtpSettings[enable=" + enable + ", serverHost=" + serverHost + ", serverPort=" + serverPort + ", user="
        + user + ", password=" + (password.isEmpty() ? "none" : "****") + ", passwordEnv=" + passwordEnv
        + ", passwordFile=" + passwordFile        + ", receivers=" + receivers + ", tls=" + tls + ", starttls=" + starttls + ", minInterval=" + minInterval
        + ", maxNumbers=" + maxNumbers + ", send=" + send + "]";
  }

  /** Mutable builder; {@link #build()} validates. Each setter sets the {@code smtp.*} key of that name. */
  public static final class Builder {
    private boolean enable;
    private String serverHost = "";
    private int serverPort;
    private String user = "";
    private String password = "";
    private String passwordEnv = "";
    private String passwordFile = "";
    private List<String> receivers = List.of();
    private boolean tls;
    private boolean starttls;
    private Duration minInterval = Duration.ofHours(1);
    private int maxNumbers = 10;
    private MailSend send = MailSend.GROUP;

    private Builder() {}

    /** {@code smtp.enable}. */
    public Builder enable(boolean v) {
      enable = v;
      return this;
    }

    /** {@code smtp.server-host}. */
    public Builder serverHost(String v) {
      serverHost = v;
      return this;
    }

    /** {@code smtp.server-port}. */
    public Builder serverPort(int v) {
      serverPort = v;
      return this;
    }

    /** {@code smtp.user}. */
    public Builder user(String v) {
      user = v;
      return this;
    }

    /** {@code smtp.password}. */
    public Builder password(String v) {
      password = v;
      return this;
    }

    /** {@code smtp.password-env}. */
    public Builder passwordEnv(String v) {
      passwordEnv = v;
      return this;
    }

    /** {@code smtp.password-file}. */
    public Builder passwordFile(String v) {
      passwordFile = v;
      return this;
    }

    /** {@code smtp.receiver}. */
    public Builder receivers(List<String> v) {
      receivers = v;
      return this;
    }

    /** {@code smtp.tls}. */
    public Builder tls(boolean v) {
      tls = v;
      return this;
    }

    /** {@code smtp.starttls}. */
    public Builder starttls(boolean v) {
      starttls = v;
      return this;
    }

    /** {@code smtp.min-interval}. */
    public Builder minInterval(Duration v) {
      minInterval = v;
      return this;
    }

    /** {@code smtp.max-numbers}. */
    public Builder maxNumbers(int v) {
      maxNumbers = v;
      return this;
    }

    /** {@code smtp.send}. */
    public Builder send(MailSend v) {
      send = v;
      return this;
    }

    /** Builds and validates. */
    public SmtpSettings build() {
      return new SmtpSettings(enable, serverHost, serverPort, user, password, passwordEnv, passwordFile, receivers, tls, starttls,
          minInterval, maxNumbers, send);
    }
  }
}

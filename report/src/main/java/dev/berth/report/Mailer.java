package dev.berth.report;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.time.InstantSource;
import java.util.Date;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;

/**
 * Sends reports by mail over SMTP: the HTML report as the body, the Markdown report as the plain-text
 * alternative, under a subject such as {@code Berth sweep-demo run report: SUCCEEDED (12/12)}. Enforces the
 * {@link MailPolicy}, and returns every failure as a {@link Delivery} instead of throwing.
 */
public final class Mailer {

  private static final String TIMEOUT_MS = "15000";

  private final SmtpSettings settings;
  /** The login password, or null when mail goes without logging in. */
  private final String password;
  private final InstantSource clock;
  private final MailPolicy policy;

  /**
   * A mailer whose policy reads the time from {@code clock}.
   *
   * @param env looks up an environment variable, for {@code smtp.password-env}; e.g. {@code System::getenv}
   * @throws IllegalArgumentException when mail is enabled but its password cannot be found
   */
  public Mailer(SmtpSettings settings, Function<String, String> env, InstantSource clock) {
    this.settings = settings;
    this.password = settings.enable() && settings.login().isPresent() ? settings.password(env) : null;
    this.clock = clock;
    this.policy = MailPolicy.of(settings);
  }

  /** The subject of a run's mail: {@code Berth <run> run report: <status> (<succeeded>/<total>)}. */
  public static String subject(RunReport report) {
    return "Berth " + report.run() + " run report: " + report.status() + " (" + Summary.ratio(report.totals()) + ")";
  }

  /** The subject of a group's mail: {@code Berth <run> <group> report: <status> (<succeeded>/<total>)}. */
  public static String subject(RunReport report, GroupReport group) {
    return "Berth " + report.run() + " " + group.name() + " report: " + Summary.groupStatus(group) + " ("
        + Summary.ratio(group.totals()) + ")";
  }

  /** Renders the run's reports and mails them. */
  public Delivery sendRun(RunReport report, HtmlOptions options) {
    return send(MailKind.RUN, subject(report), HtmlReport.render(report, options),
        MarkdownReport.render(report, options.results(), options.objective()));
  }

  /**
   * Mails that a group finished, with the report of the run so far.
   *
   * @param group the name of a group of {@code report}
   */
  public Delivery sendGroup(RunReport report, String group, HtmlOptions options) {
    Optional<GroupReport> g = report.groups().stream().filter(x -> x.name().equals(group)).findFirst();
    if (g.isEmpty()) {
      return Delivery.failed("no group '" + group + "' in run " + report.run());
    }
    return send(MailKind.GROUP, subject(report, g.get()), HtmlReport.render(report, options),
        MarkdownReport.render(report, options.results(), options.objective()));
  }

  /**
   * Sends one mail when mail is enabled and the policy allows it.
   *
   * @param html the body
   * @param text the plain-text alternative
   */
  public Delivery send(MailKind kind, String subject, String html, String text) {
    if (!settings.enable()) {
      return Delivery.skipped("mail is off (smtp.enable is false)");
    }
    Optional<String> refusal = policy.tryAcquire(kind, clock.instant());
    if (refusal.isPresent()) {
      return Delivery.skipped(refusal.get());
    }
    String server = settings.serverHost() + ":" + settings.port();
    try {
      Session session = Session.getInstance(properties());
      MimeMessage message = message(session, subject, html, text);
      try (Transport transport = session.getTransport(protocol())) {
        transport.connect(settings.serverHost(), settings.port(), settings.login().orElse(null), password);
        transport.sendMessage(message, message.getAllRecipients());
      }
      return Delivery.sent("mail '" + subject + "' to " + String.join(", ", settings.receivers()) + " via " + server);
    } catch (MessagingException | RuntimeException e) {
      return Delivery.failed("smtp " + server + ": " + reason(e));
    }
  }

  /** The policy, to see how many mails went. */
  public MailPolicy policy() {
    return policy;
  }

  private MimeMessage message(Session session, String subject, String html, String text) throws MessagingException {
    MimeMessage m = new MimeMessage(session);
    m.setFrom(new InternetAddress(sender()));
    for (String r : settings.receivers()) {
      m.addRecipients(Message.RecipientType.TO, InternetAddress.parse(r, true));
    }
    m.setSubject(subject, "UTF-8");
    m.setSentDate(Date.from(clock.instant()));
    MimeBodyPart plain = new MimeBodyPart();
    plain.setText(text, "UTF-8", "plain");
    MimeBodyPart rich = new MimeBodyPart();
    rich.setText(html, "UTF-8", "html");
    // Clients show the last alternative they understand, so the HTML goes last.
    MimeMultipart alternative = new MimeMultipart("alternative", plain, rich);
    m.setContent(alternative);
    m.saveChanges();
    return m;
  }

  private String sender() {
    return settings.login().filter(u -> u.contains("@")).orElse(settings.receivers().get(0));
  }

  private String protocol() {
    return settings.tls() ? "smtps" : "smtp";
  }

  private Properties properties() {
    String p = "mail." + protocol() + ".";
    Properties props = new Properties();
    props.put(p + "host", settings.serverHost());
    props.put(p + "port", Integer.toString(settings.port()));
    props.put(p + "auth", Boolean.toString(settings.login().isPresent()));
    props.put(p + "connectiontimeout", TIMEOUT_MS);
    props.put(p + "timeout", TIMEOUT_MS);
    props.put(p + "writetimeout", TIMEOUT_MS);
    if (settings.tls()) {
      props.put(p + "ssl.checkserveridentity", "true");
    }
    if (settings.starttls()) {
      props.put(p + "starttls.enable", "true");
      props.put(p + "starttls.required", "true");
      props.put(p + "ssl.checkserveridentity", "true");
    }
    return props;
  }

  private static String reason(Exception e) {
    StringBuilder b = new StringBuilder();
    Throwable t = e;
    // Connection failures arrive wrapped; the innermost message is the one that says what happened.
    while (t != null && b.length() < 300) {
      String m = t.getMessage();
      if (m != null && !m.isBlank() && b.indexOf(m.strip()) < 0) {
        b.append(b.length() == 0 ? "" : ": ").append(m.strip().replace('\n', ' '));
      }
      t = t.getCause() == t ? null : t.getCause();
    }
    return b.length() == 0 ? e.getClass().getSimpleName() : b.toString();
  }
}

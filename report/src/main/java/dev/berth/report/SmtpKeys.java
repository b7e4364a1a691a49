package dev.berth.report;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.ValueParser;
import dev.berth.core.settings.ValueText;
import dev.berth.report.SmtpSettings.Builder;
import java.util.ArrayList;
import java.util.List;

/** The {@code smtp.*} config keys, which {@link SmtpSettings} is read from. */
public final class SmtpKeys {

  /** Addresses: one, a list, or several in one text separated by commas. */
  private static final ValueParser<List<String>> RECEIVERS = value -> {
    List<String> out = new ArrayList<>();
    for (String item : Parsers.TEXT_LIST.parse(value)) {
      for (String part : item.split(",")) {
        if (!part.isBlank()) {
          out.add(part.strip());
        }
      }
    }
    return List.copyOf(out);
  };

  /** The table. */
  public static final SettingsTable<SmtpSettings, Builder> TABLE = SettingsTable.of("smtp", SmtpSettings.class,
      SmtpSettings::builder, Builder::build, List.of(
          ConfigKey.of("smtp.enable", "true or false", Parsers.BOOLEAN, Builder::enable, SmtpSettings::enable,
              String::valueOf, "mail the reports"),
          ConfigKey.text("smtp.server-host", Builder::serverHost, SmtpSettings::serverHost, "SMTP server"),
          ConfigKey.of("smtp.server-port", "whole number", Parsers.wholeNumber(0), Builder::serverPort,
              SmtpSettings::serverPort, String::valueOf, "SMTP port; 0 = 25, or 465 with tls, or 587 with starttls"),
          ConfigKey.text("smtp.user", Builder::user, SmtpSettings::user, "login user and sender address"),
          ConfigKey.<SmtpSettings, Builder>text("smtp.password", Builder::password, SmtpSettings::password,
              "login password (prefer password-env)").asSecret(),
          ConfigKey.text("smtp.password-env", Builder::passwordEnv, SmtpSettings::passwordEnv,
              "environment variable that holds the password; tasks do not inherit it").asSecretVariable(),
          ConfigKey.text("smtp.password-file", Builder::passwordFile, SmtpSettings::passwordFile,
              "file that holds the password, readable by its owner only (chmod 600)").asJournaledWhenSet(),
          ConfigKey.of("smtp.receiver", "list of text", RECEIVERS, Builder::receivers, SmtpSettings::receivers,
              ValueText::list, "who gets the mail: an address or a list"),
          ConfigKey.of("smtp.tls", "true or false", Parsers.BOOLEAN, Builder::tls, SmtpSettings::tls, String::valueOf,
              "connect with TLS (implicit TLS, usually port 465)"),
          ConfigKey.of("smtp.starttls", "true or false", Parsers.BOOLEAN, Builder::starttls, SmtpSettings::starttls,
              String::valueOf, "upgrade the connection with STARTTLS (usually port 587)"),
          ConfigKey.of("smtp.min-interval", "duration", Parsers.DURATION, Builder::minInterval,
              SmtpSettings::minInterval, ValueText::duration, "least time between two mails of the same kind"),
          ConfigKey.of("smtp.max-numbers", "whole number", Parsers.wholeNumber(0), Builder::maxNumbers,
              SmtpSettings::maxNumbers, String::valueOf, "most mails in one run; 0 = no limit"),
          ConfigKey.of("smtp.send", "group, run or both", Parsers.oneOf(MailSend.values()), Builder::send,
              SmtpSettings::send, String::valueOf,
              "which reports are mailed: group (after each group, as fedflow), run, or both")));

  private SmtpKeys() {}
}

package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MailerTest {

  @RegisterExtension
  static final GreenMailExtension SMTP = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort())
      .withConfiguration(GreenMailConfiguration.aConfig().withUser("berth@example.org", "s3cret"));

  private final FakeInstants clock = new FakeInstants(SampleRun.T0);
  private final HtmlOptions options =
      HtmlOptions.defaults().withResults(SampleRun.taskResults()).withObjective(Objective.max("val_acc"));

  @Test
  void theRunReportIsMailedAfterLoggingIn() throws Exception {
    Delivery d = mailer(settings("s3cret", 10)).sendRun(SampleRun.report(), options);

    assertThat(d.status()).as(d.toString()).isEqualTo(Delivery.Status.SENT);
    assertThat(SMTP.waitForIncomingEmail(5_000, 1)).isTrue();
    MimeMessage m = SMTP.getReceivedMessages()[0];
    assertThat(m.getSubject()).isEqualTo("Berth sweep-demo run report: FAILED (4/7)");
    assertThat(m.getFrom()[0].toString()).isEqualTo("berth@example.org");
    assertThat(m.getAllRecipients()[0].toString()).isEqualTo("team@example.org");
  }

  @Test
  void theBodyIsTheEscapedHtmlReportWithMarkdownAsTheTextAlternative() throws Exception {
    mailer(settings("s3cret", 10)).sendRun(SampleRun.report(), options);

    assertThat(SMTP.waitForIncomingEmail(5_000, 1)).isTrue();
    MimeMultipart parts = (MimeMultipart) SMTP.getReceivedMessages()[0].getContent();
    assertThat(parts.getContentType()).startsWith("multipart/alternative");
    assertThat(parts.getBodyPart(0).getContentType()).startsWith("text/plain");
    assertThat((String) parts.getBodyPart(0).getContent()).startsWith("# Berth run sweep-demo: FAILED");
    assertThat(parts.getBodyPart(1).getContentType()).startsWith("text/html");
    String html = (String) parts.getBodyPart(1).getContent();
    assertThat(html).contains("Sweep: best val_acc first", "eval-&lt;script&gt;alert(1)&lt;/script&gt;")
        .doesNotContain("<script>");
  }

  @Test
  void aGroupMailNamesTheGroupInItsSubject() throws Exception {
    Delivery d = mailer(settings("s3cret", 10)).sendGroup(SampleRun.report(), "train", options);

    assertThat(d.wasSent()).as(d.toString()).isTrue();
    assertThat(SMTP.waitForIncomingEmail(5_000, 1)).isTrue();
    assertThat(SMTP.getReceivedMessages()[0].getSubject()).isEqualTo("Berth sweep-demo train report: FAILED (3/4)");
  }

  @Test
  void groupMailsWaitForTheMinimumIntervalAndStopAtMaxNumbers() {
    Mailer mailer = mailer(settings("s3cret", 2));

    assertThat(mailer.sendGroup(SampleRun.report(), "prepare", options).wasSent()).isTrue();
    clock.advance(Duration.ofMinutes(30));
    Delivery tooSoon = mailer.sendGroup(SampleRun.report(), "train", options);
    clock.advance(Duration.ofMinutes(30));
    Delivery onTime = mailer.sendGroup(SampleRun.report(), "train", options);
    clock.advance(Duration.ofHours(2));
    Delivery overLimit = mailer.sendRun(SampleRun.report(), options);

    assertThat(tooSoon).isEqualTo(Delivery.skipped("smtp.min-interval: the last group mail went 30m00s ago, less than 1h00m"));
    assertThat(onTime.wasSent()).as(onTime.toString()).isTrue();
    assertThat(overLimit).isEqualTo(Delivery.skipped("smtp.max-numbers reached: 2 mails already sent in this run"));
    assertThat(SMTP.getReceivedMessages()).hasSize(2);
  }

  @Test
  void aWrongPasswordIsAFailedDeliveryNotAnException() {
    Delivery d = mailer(settings("wrong", 10)).sendRun(SampleRun.report(), options);

    assertThat(d.status()).isEqualTo(Delivery.Status.FAILED);
    assertThat(d.detail()).startsWith("smtp 127.0.0.1:" + SMTP.getSmtp().getPort() + ": ").doesNotContain("wrong");
    assertThat(SMTP.getReceivedMessages()).isEmpty();
  }

  @Test
  void aServerThatIsNotThereIsAFailedDeliveryNotAnException() throws Exception {
    // A port bound but not listening refuses connections, and no other process can take it meanwhile.
    try (Socket reserved = new Socket()) {
      reserved.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int closed = reserved.getLocalPort();
      SmtpSettings s = SmtpSettings.builder().enable(true).serverHost("127.0.0.1").serverPort(closed).user("berth")
          .password("s3cret").receivers(List.of("team@example.org")).build();

      Delivery d = mailer(s).sendRun(SampleRun.report(), options);

      assertThat(d.status()).isEqualTo(Delivery.Status.FAILED);
      assertThat(d.detail()).startsWith("smtp 127.0.0.1:" + closed + ": ").containsIgnoringCase("connect");
    }
  }

  @Test
  void nothingIsSentWhenMailIsOff() {
    Delivery d = new Mailer(SmtpSettings.disabled(), name -> null, clock).sendRun(SampleRun.report(), options);

    assertThat(d).isEqualTo(Delivery.skipped("mail is off (smtp.enable is false)"));
    assertThat(SMTP.getReceivedMessages()).isEmpty();
  }

  private Mailer mailer(SmtpSettings settings) {
    return new Mailer(settings, name -> null, clock);
  }

  private static SmtpSettings settings(String password, int maxNumbers) {
    return SmtpSettings.builder().enable(true).serverHost("127.0.0.1").serverPort(SMTP.getSmtp().getPort())
        .user("berth@example.org").password(password).receivers(List.of("team@example.org")).maxNumbers(maxNumbers)
        .build();
  }
}

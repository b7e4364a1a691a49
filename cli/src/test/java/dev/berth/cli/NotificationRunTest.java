package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import com.sun.net.httpserver.HttpServer;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A run mails its group reports to a real SMTP server and posts its events to a real HTTP receiver. */
class NotificationRunTest {

  @RegisterExtension
  static GreenMailExtension mail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

  @TempDir Path dir;

  private HttpServer receiver;
  private final List<String> posted = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startReceiver() throws IOException {
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext("/hook", exchange -> {
      posted.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    receiver.start();
  }

  @AfterEach
  void stopReceiver() {
    receiver.stop(0);
  }

  @Test
  void groupReportsAreMailedAndEventsArePosted() throws Exception {
    Path spec = dir.resolve("n.yaml");
    Files.writeString(spec, """
        name: notify-<b>
        workdir: %s
        notify: {webhook: "http://127.0.0.1:%d/hook", on: [run-end, task-failed, group-end]}
        config:
          scheduler: {default-memory: 1MiB}
          remain-limit: {memory: 1MiB}
          utilization-limit: {cpu: 1.0}
          smtp: {enable: true, server-host: 127.0.0.1, server-port: %d, receiver: team@example.org, send: both, min-interval: 0s}
        groups:
          - name: first
            tasks:
              - id: "ok-{i}"
                matrix: {i: [1, 2, 3]}
                command: [sh, -c, "sleep 0.0$((4 - {i}))"]
          - name: second
            tasks:
              - id: "bad"
                command: [sh, -c, "echo '<script>alert(1)</script>' >&2; exit 3"]
        """.replace("notify-<b>", "notify").formatted(dir.resolve("out"), receiver.getAddress().getPort(),
            mail.getSmtp().getPort()));

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isEqualTo(1);
    MimeMessage[] messages = mail.getReceivedMessages();
    assertThat(messages).extracting(MimeMessage::getSubject).containsExactlyInAnyOrder(
        "Berth notify first report: SUCCEEDED (3/3)",
        "Berth notify second report: FAILED (0/1)",
        "Berth notify run report: FAILED (3/4)");
    assertThat(posted).anySatisfy(p -> assertThat(p).contains("\"event\":\"task-failed\"").contains("bad"));
    assertThat(posted).anySatisfy(p -> assertThat(p).contains("\"event\":\"group-end\""));
    assertThat(posted).anySatisfy(p -> assertThat(p).contains("\"event\":\"run-end\"").contains("FAILED"));
    assertThat(dir.resolve("out/report.html")).exists();
    assertThat(Files.readString(dir.resolve("out/report.html"))).doesNotContain("<script>alert(1)</script>");
    assertThat(dir.resolve("out/report.md")).exists();
    assertThat(dir.resolve("out/results.csv")).exists();
  }

  @Test
  void secretsReadFromFilesReachTheReceiverButNoJournalReportLogConsoleOrTask() throws Exception {
    Path hook = Files.writeString(dir.resolve("hook-url"), "http://127.0.0.1:%d/hook?token=s3cret-hook\n"
        .formatted(receiver.getAddress().getPort()));
    Path password = Files.writeString(dir.resolve("mail-password"), "s3cret-mail\n");
    mail.setUser("me", "s3cret-mail");
    Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rw-------"));
    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    Path spec = dir.resolve("f.yaml");
    Files.writeString(spec, """
        name: files
        workdir: %s
        notify: {url-file: "%s", on: [run-end]}
        config:
          scheduler: {default-memory: 1MiB}
          remain-limit: {memory: 1MiB}
          utilization-limit: {cpu: 1.0}
          smtp: {enable: true, server-host: 127.0.0.1, server-port: %d, user: me, password-file: "%s", receiver: team@example.org, send: run}
        groups:
          - name: g
            tasks:
              - id: snoop
                command: [sh, -c, "env; cat /proc/$PPID/environ 2>/dev/null | tr '\\\\0' '\\\\n'"]
        """.formatted(dir.resolve("out"), hook, mail.getSmtp().getPort(), password));

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    assertThat(posted).anySatisfy(p -> assertThat(p).contains("\"event\":\"run-end\""));
    assertThat(mail.getReceivedMessages()).as(run.out + run.err).extracting(MimeMessage::getSubject)
        .containsExactly("Berth files run report: SUCCEEDED (1/1)");
    assertThat(run.out + run.err).doesNotContain("s3cret");
    try (var files = Files.walk(dir.resolve("out"))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).as(f.toString())
            .doesNotContain("s3cret");
      }
    }
    assertThat(dir.resolve("out/g/snoop/stdout.log")).content().contains("PATH=");

    Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rw-r--r--"));
    CliRunner open = CliRunner.berth("run", "--fresh", spec.toString());
    assertThat(open.exitCode).isEqualTo(2);
    assertThat(open.err).contains("notify.url-file: " + hook + " is open to others (rw-r--r--)")
        .doesNotContain("s3cret");
  }

  @Test
  void mailSettingsThatCannotWorkAreBadInputAndNothingStarts() throws IOException {
    Path spec = dir.resolve("m.yaml");
    Files.writeString(spec, """
        name: m
        workdir: %s
        config:
          smtp: {enable: true, receiver: a@example.org}
        groups:
          - name: g
            tasks:
              - id: a
                command: ["true"]
        """.formatted(dir.resolve("out")));

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err).contains("smtp.server-host is required");
    assertThat(dir.resolve("out/report.json")).doesNotExist();
  }
}

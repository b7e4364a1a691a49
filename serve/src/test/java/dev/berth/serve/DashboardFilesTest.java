package dev.berth.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.spi.SharedReservations.RunEntry;
import dev.berth.testkit.FakeClock;
import java.net.InetAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under {@code --public-read} anyone reads what the dashboard serves, and a task's folder belongs to
 * the task's owner: a log or samples file there that leads to another file is not read.
 */
class DashboardFilesTest {

  private static final String SECRET = "{\"secret\": \"only the dashboard's user may read this\"}";

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();
  private DashboardServer server;
  private Path run;
  private Path secret;

  @BeforeEach
  void failedRun() throws Exception {
    secret = Files.writeString(dir.resolve("secret"), SECRET + "\n");
    run = dir.resolve("run");
    start(1);
  }

  /** Serves the run in {@code run}, made with its task exiting with {@code exitCode}, under --public-read. */
  private void start(int exitCode) throws Exception {
    RunEntry entry = EndedRun.in(run, exitCode);
    server = DashboardServer.start(() -> List.of(entry), new RunActions(line -> { }), ServeToken.of("t0ken"),
        InetAddress.getLoopbackAddress(), 0, true, new FakeClock(Instant.parse("2026-11-26T05:10:00Z")));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private String get(String path) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.uri().resolve(path)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return r.body();
  }

  @Test
  void aTasksOwnLogIsServed() throws Exception {
    assertThat(get("/api/runs/r1/tasks/t/log")).contains(EndedRun.STDERR);
    assertThat(get("/api/runs/r1/tasks/t/log?attempt=1")).contains(EndedRun.STDERR);
    assertThat(get("/api/runs/r1")).contains("\"stderrTail\":\"" + EndedRun.STDERR);
  }

  @Test
  void aLogThatIsALinkOutOfTheRunFolderIsNotRead() throws Exception {
    Path task = run.resolve("g").resolve("t");
    for (String log : List.of("stderr.log", "attempt-1.stderr.log")) {
      Files.delete(task.resolve(log));
      Files.createSymbolicLink(task.resolve(log), secret);
    }

    assertThat(get("/api/runs/r1/tasks/t/log")).doesNotContain("secret").contains("\"lines\":[]");
    assertThat(get("/api/runs/r1/tasks/t/log?attempt=1")).doesNotContain("secret");
    assertThat(get("/api/runs/r1")).doesNotContain("secret").doesNotContain("stderrTail");
  }

  @Test
  void aTaskFolderSwappedForALinkToAnotherFolderIsNotRead() throws Exception {
    Path task = run.resolve("g").resolve("t");
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    Files.copy(secret, elsewhere.resolve("stderr.log"));
    Files.copy(secret, elsewhere.resolve("attempt-1.stderr.log"));
    Files.move(task, run.resolve("g").resolve("t-aside"));
    Files.createSymbolicLink(task, elsewhere);

    assertThat(get("/api/runs/r1/tasks/t/log")).doesNotContain("secret");
    assertThat(get("/api/runs/r1/tasks/t/log?attempt=1")).doesNotContain("secret");
    assertThat(get("/api/runs/r1")).doesNotContain("secret");
  }

  @Test
  void aLogOwnedBySomeoneElseThanTheRunsOwnerIsNotRead() throws Exception {
    assumeTrue(System.getProperty("user.name").equals("root"), "only root gives a file to another user");
    UserPrincipal nobody = FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    Path task = run.resolve("g").resolve("t");
    // what a hard link to another user's file looks like: the run's owner made the name, not the file
    Files.setOwner(task.resolve("attempt-1.stderr.log"), nobody);

    assertThat(Files.getOwner(task.resolve("stderr.log"))).isEqualTo(nobody);
    assertThat(get("/api/runs/r1/tasks/t/log")).doesNotContain(EndedRun.STDERR);
    assertThat(get("/api/runs/r1")).doesNotContain(EndedRun.STDERR);
  }

  @Test
  void aResultFileThatIsALinkOutOfTheRunFolderIsNotRead() throws Exception {
    server.close();
    run = dir.resolve("succeeded");
    start(0);
    Path result = run.resolve("g").resolve("t").resolve("result.json");
    Files.writeString(result, "{\"loss\": 0.25}");
    assertThat(get("/api/runs/r1")).contains("\"results\":{\"loss\":0.25}");

    Files.delete(result);
    Files.createSymbolicLink(result, secret);

    assertThat(get("/api/runs/r1")).doesNotContain("secret").doesNotContain("results");
  }

  @Test
  void samplesThatAreALinkOutOfTheRunFolderAreNotRead() throws Exception {
    Files.deleteIfExists(run.resolve(RunApi.SAMPLES));
    Files.createSymbolicLink(run.resolve(RunApi.SAMPLES), secret);

    assertThat(get("/api/runs/r1/samples")).doesNotContain("secret").isEqualTo("{\"samples\":[]}");
  }
}

package dev.berth.runtime.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CancelRequestsTest {

  @TempDir Path dir;

  private List<Path> filesInFolder() throws IOException {
    Path folder = CancelRequests.folder(dir);
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(folder)) {
      return s.toList();
    }
  }

  @Test
  void aSubmittedRequestReachesTheHandlerOfTheLiveRunAndItsFileIsDeleted() throws Exception {
    CompletableFuture<CancelRequests.Request> got = new CompletableFuture<>();
    try (CancelRequests watcher = CancelRequests.watch(dir, got::complete)) {
      Path file = CancelRequests.submit(dir, new CancelRequests.Request(List.of("train-*", "group:eval"), "enough"));
      assertThat(file.getParent()).isEqualTo(dir.resolve(".berth").resolve("requests"));

      CancelRequests.Request r = got.get(30, TimeUnit.SECONDS);

      assertThat(r).isEqualTo(new CancelRequests.Request(List.of("train-*", "group:eval"), "enough"));
      assertThat(file).doesNotExist();
      assertThat(filesInFolder()).as("no temporary file left either").isEmpty();
    }
  }

  @Test
  void aRequestWithoutPatternsMeansTheWholeRun() throws Exception {
    CompletableFuture<CancelRequests.Request> got = new CompletableFuture<>();
    try (CancelRequests watcher = CancelRequests.watch(dir, got::complete)) {
      CancelRequests.submit(dir, new CancelRequests.Request(List.of(), "stop"));

      assertThat(got.get(30, TimeUnit.SECONDS).patterns()).isEmpty();
    }
  }

  @Test
  void aRequestWrittenBeforeTheWatchStartedIsHandledFirst() throws Exception {
    Path early = CancelRequests.submit(dir, new CancelRequests.Request(List.of("a"), "early"));
    CompletableFuture<CancelRequests.Request> got = new CompletableFuture<>();

    try (CancelRequests watcher = CancelRequests.watch(dir, got::complete)) {
      assertThat(got.get(30, TimeUnit.SECONDS).reason()).isEqualTo("early");
      assertThat(early).doesNotExist();
    }
  }

  @Test
  void severalRequestsAreEachHandledOnce() throws Exception {
    BlockingQueue<CancelRequests.Request> got = new LinkedBlockingQueue<>();
    try (CancelRequests watcher = CancelRequests.watch(dir, got::add)) {
      for (int i = 0; i < 5; i++) {
        CancelRequests.submit(dir, new CancelRequests.Request(List.of("t" + i), "r" + i));
      }
      List<String> reasons = new java.util.ArrayList<>();
      for (int i = 0; i < 5; i++) {
        CancelRequests.Request r = got.poll(30, TimeUnit.SECONDS);
        assertThat(r).as("request %d arrived", i).isNotNull();
        reasons.add(r.reason());
      }
      assertThat(reasons).containsExactlyInAnyOrder("r0", "r1", "r2", "r3", "r4");
      assertThat(got.poll(200, TimeUnit.MILLISECONDS)).as("none twice").isNull();
    }
  }

  @Test
  void aMalformedRequestIsSkippedAndLaterOnesStillArrive() throws Exception {
    Files.createDirectories(CancelRequests.folder(dir));
    Files.writeString(CancelRequests.folder(dir).resolve("cancel-0000-bad.json"), "{not json");
    CompletableFuture<CancelRequests.Request> got = new CompletableFuture<>();

    try (CancelRequests watcher = CancelRequests.watch(dir, got::complete)) {
      CancelRequests.submit(dir, new CancelRequests.Request(List.of("x"), "good"));

      assertThat(got.get(30, TimeUnit.SECONDS).reason()).isEqualTo("good");
    }
  }
}

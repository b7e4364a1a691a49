package dev.berth.runtime.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Cancel requests from other processes, as files in {@code .berth/requests/} of the run folder.
 * {@code berth cancel} writes one atomically; the live run watches the folder (an operating-system
 * notification, not polling), acts on each request and deletes it.
 */
public final class CancelRequests implements AutoCloseable {

  /** Made when a request is first written or read: a run's start only names the folder. */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  /**
   * One request.
   *
   * @param patterns task ids, globs or {@code group:NAME}; empty means the whole run
   * @param reason why, for the report
   */
  public record Request(List<String> patterns, String reason) {}

  private final WatchService watcher;
  private final Thread thread;

  private CancelRequests(WatchService watcher, Thread thread) {
    this.watcher = watcher;
    this.thread = thread;
  }

  /** The request folder of a run folder. */
  public static Path folder(Path runDir) {
    return runDir.resolve(".berth").resolve("requests");
  }

  /** Writes a request for the live run in {@code runDir} to act on. */
  public static Path submit(Path runDir, Request request) throws IOException {
    Path dir = folder(runDir);
    Files.createDirectories(dir);
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.putArray("tasks").addAll(request.patterns().stream().map(Json.MAPPER.getNodeFactory()::textNode).toList());
    node.put("reason", request.reason());
    String name = "cancel-" + UUID.randomUUID();
    Path tmp = dir.resolve("." + name + ".tmp");
    Files.write(tmp, Json.MAPPER.writeValueAsBytes(node));
    Path file = dir.resolve(name + ".json");
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    return file;
  }

  /**
   * Starts watching the run folder's requests on a daemon thread; requests already waiting are
   * handled first. {@code handler} is called on that thread.
   */
  public static CancelRequests watch(Path runDir, Consumer<Request> handler) throws IOException {
    Path dir = folder(runDir);
    Files.createDirectories(dir);
    WatchService watcher = dir.getFileSystem().newWatchService();
    dir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE);
    Thread thread = new Thread(() -> loop(dir, watcher, handler), "berth-requests");
    thread.setDaemon(true);
    thread.start();
    return new CancelRequests(watcher, thread);
  }

  private static void loop(Path dir, WatchService watcher, Consumer<Request> handler) {
    try {
      drainFolder(dir, handler);
      while (true) {
        WatchKey key = watcher.take();
        key.pollEvents();
        drainFolder(dir, handler);
        if (!key.reset()) {
          return;
        }
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      // closed: the run is over
    }
  }

  private static void drainFolder(Path dir, Consumer<Request> handler) {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "cancel-*.json")) {
      s.forEach(files::add);
    } catch (IOException e) {
      return;
    }
    files.sort(null);
    for (Path f : files) {
      try {
        JsonNode node = Json.MAPPER.readTree(f.toFile());
        List<String> patterns = new ArrayList<>();
        node.path("tasks").forEach(t -> patterns.add(t.asText()));
        String reason = node.path("reason").asText("cancelled");
        Files.deleteIfExists(f);
        handler.accept(new Request(List.copyOf(patterns), reason));
      } catch (IOException e) {
        // a malformed or vanished request file: skip it
      }
    }
  }

  @Override
  public void close() throws IOException {
    watcher.close();
    thread.interrupt();
  }
}

package dev.berth.serve;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Waits for files in some folders to change, through the operating system's file notifications (no
 * polling): an event stream wakes when a run's journal or status file, or a task's log, is written.
 */
final class DirectoryWatch implements AutoCloseable {

  private final WatchService service;
  private final List<Path> folders;

  /**
   * Watches {@code folders}; one that does not exist yet (a task's, before its first attempt) is
   * watched from its parent, so that its making wakes the watch, and from then on itself.
   */
  DirectoryWatch(List<Path> folders) throws IOException {
    this.service = FileSystems.getDefault().newWatchService();
    this.folders = List.copyOf(folders);
    register();
  }

  /** Registers each folder, or the parent of one still missing; registering again is harmless. */
  private void register() throws IOException {
    for (Path folder : folders) {
      Path watched = Files.isDirectory(folder) ? folder : folder.getParent();
      if (watched != null && Files.isDirectory(watched)) {
        watched.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
            StandardWatchEventKinds.ENTRY_DELETE);
      }
    }
  }

  /**
   * Waits until something changed (true) or {@code quiet} passed without a change (false, the caller
   * then sends a keep-alive so a gone client is noticed); a burst of changes counts once.
   */
  boolean awaitChange(Duration quiet) throws InterruptedException {
    try {
      long deadline = System.nanoTime() + quiet.toNanos();
      boolean changed = false;
      while (!changed) {
        WatchKey key = service.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (key == null) {
          return false;
        }
        changed = drain(key);
      }
      WatchKey more;
      while ((more = service.poll()) != null) {
        drain(more);
      }
      register();
      return true;
    } catch (IOException e) {
      return true; // a folder went away (the run folder moved aside): the caller reads again and sees
    } catch (ClosedWatchServiceException e) {
      throw new InterruptedException("the watch was closed");
    }
  }

  /** Whether the key saw a change that counts: SQLite's shared-memory index changes when anyone merely reads. */
  private static boolean drain(WatchKey key) {
    boolean counts = key.pollEvents().stream().anyMatch(e -> !String.valueOf(e.context()).endsWith("-shm"));
    key.reset();
    return counts;
  }

  @Override
  public void close() throws IOException {
    service.close();
  }
}

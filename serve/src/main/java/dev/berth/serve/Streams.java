package dev.berth.serve;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The event streams open now, so that stopping the server ends them instead of waiting for clients. */
final class Streams {

  /** One open stream; closing it forgets it. */
  interface Entry extends AutoCloseable {
    @Override
    void close();
  }

  private final Set<DirectoryWatch> open = ConcurrentHashMap.newKeySet();

  Entry add(DirectoryWatch watch) {
    open.add(watch);
    return () -> open.remove(watch);
  }

  /** Ends every open stream: each one's wait fails and its request completes. */
  void closeAll() {
    for (DirectoryWatch w : open) {
      try {
        w.close();
      } catch (IOException e) {
        // already closed; its stream ends either way
      }
    }
  }
}

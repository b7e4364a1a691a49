package dev.berth.task.worker;

import dev.berth.protocol.LineChannel;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;

/**
 * The class path entries a child JVM needs to run {@link WorkerMain}: where the task API's classes
 * are and where the control protocol's are. In Berth's own jar both are that jar (one entry); in a
 * development build they are two class folders or jars.
 */
public final class WorkerClasspath {

  private WorkerClasspath() {}

  /**
   * The entries, the task API's first, each once.
   *
   * @throws IllegalStateException when a location cannot be told (a class loaded without a code source)
   */
  public static List<String> entries() {
    List<String> entries = new ArrayList<>();
    for (Class<?> c : List.of(WorkerMain.class, LineChannel.class)) {
      String location = location(c);
      if (!entries.contains(location)) {
        entries.add(location);
      }
    }
    return List.copyOf(entries);
  }

  private static String location(Class<?> c) {
    CodeSource source = c.getProtectionDomain().getCodeSource();
    if (source == null) {
      throw new IllegalStateException("cannot locate Berth's task worker: " + c.getName() + " has no code source");
    }
    try {
      return Path.of(source.getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate Berth's task worker", e);
    }
  }
}

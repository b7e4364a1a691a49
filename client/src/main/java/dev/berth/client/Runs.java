package dev.berth.client;

/** Makes whole runs in the core model's form, the Java twin of a YAML spec file. */
public final class Runs {

  private Runs() {}

  /**
   * A run named {@code name}, with the spec's defaults: workdir {@code berth-out/<name>}, the
   * default configuration, GPUs {@code auto}, groups one after another, no objective.
   *
   * @throws IllegalArgumentException when the name is not letters, digits and {@code . _ -}
   */
  public static RunBuilder named(String name) {
    return new RunBuilder(name);
  }
}

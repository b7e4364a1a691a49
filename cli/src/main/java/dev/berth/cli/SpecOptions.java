package dev.berth.cli;

import dev.berth.core.model.RunSpec;
import dev.berth.session.AdapterTables;
import dev.berth.spec.SpecException;
import dev.berth.spec.SpecLoader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The options every command that reads a spec shares: the spec, the config file and overrides. */
final class SpecOptions {

  @Parameters(index = "0", paramLabel = "SPEC", description = "The run spec (YAML).")
  Path spec;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "Config file (default: ./config.yaml when it exists).")
  Path config;

  @Option(
      names = "--workdir",
      paramLabel = "DIR",
      description = "The run's folder, instead of the spec's workdir (default berth-out/<name>).")
  String workdir;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description = "Override one config key, e.g. --set scheduler.max-process=4. Repeatable.")
  List<String> overrides = new ArrayList<>();

  /**
   * Loads the spec as {@link #load} does; a problem is printed to {@code err} as Berth's one-line
   * error, and the result is then empty (the command exits with {@link ExitCodes#BAD_INPUT}).
   */
  Optional<RunSpec> loadOrReport(PrintWriter err) {
    try {
      SpecLoader.Loaded loaded = read();
      loaded.warnings().forEach(w -> err.println("berth: warning: " + w));
      return Optional.of(loaded.run());
    } catch (SpecException e) {
      err.println("berth: " + e.getMessage());
      return Optional.empty();
    }
  }

  /** Loads and validates the spec with the config file and overrides. */
  RunSpec load() throws SpecException {
    return read().run();
  }

  /** Loads as {@link #load} does, with the warnings about the spec. */
  SpecLoader.Loaded read() throws SpecException {
    Path configFile = config;
    if (configFile == null && Files.isRegularFile(Path.of("config.yaml"))) {
      configFile = Path.of("config.yaml");
    }
    if (workdir != null && workdir.isBlank()) {
      throw new SpecException("command line", "--workdir", "must not be empty; leave it out to use the spec's workdir");
    }
    SpecLoader.Loaded loaded = SpecLoader.read(spec, configFile, overrides, AdapterTables.ALL);
    return workdir == null ? loaded : new SpecLoader.Loaded(loaded.run().withWorkdir(workdir), loaded.warnings());
  }
}

package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.cli.args.Parameter;
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

/** The options every command that reads a spec shares: the spec, the config file and overrides. */
final class SpecOptions {

  static final Parameter SPEC = Parameter.required("SPEC", "The run spec (YAML).");

  static final Option CONFIG = Option.value("--config", "FILE", "Config file (default: ./config.yaml when it exists).");

  static final Option WORKDIR = Option.value("--workdir", "DIR",
      "The run's folder, instead of the spec's workdir (default berth-out/<name>).");

  static final Option SET = Option.value("--set", "KEY=VALUE",
      "Override one config key, e.g. --set scheduler.max-process=4. Repeatable.").repeatable();

  final Path spec;
  final Path config;
  final String workdir;
  final List<String> overrides;

  /** The spec and settings given on the command line. */
  SpecOptions(Arguments args) {
    this(args.path(SPEC), args.path(CONFIG), args.value(WORKDIR), args.values(SET));
  }

  /** The spec with a config file (null: ./config.yaml when it exists), a workdir (null: the spec's) and overrides. */
  SpecOptions(Path spec, Path config, String workdir, List<String> overrides) {
    this.spec = spec;
    this.config = config;
    this.workdir = workdir;
    this.overrides = new ArrayList<>(overrides);
  }

  /** Declares the spec parameter and the options in a command's syntax. */
  static void declare(CommandSyntax.Builder syntax) {
    syntax.parameter(SPEC).options(CONFIG, WORKDIR, SET);
  }

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

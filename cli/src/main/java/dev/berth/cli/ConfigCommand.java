package dev.berth.cli;

import dev.berth.core.model.RunSpec;
import dev.berth.session.AdapterTables;
import dev.berth.spec.ConfigKeys;
import dev.berth.spec.SpecException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code berth config --defaults} prints every key with its default and meaning (fedflow's
 * generate-config, as a commented config file); {@code berth config --effective SPEC} prints the
 * configuration a run of SPEC would use, after ./config.yaml, the spec and --set.
 */
@Command(name = "config", description = "Print every config key with its default, or the effective config of a spec.")
final class ConfigCommand implements Callable<Integer> {

  @ArgGroup(exclusive = true, multiplicity = "1")
  Mode mode;

  static final class Mode {
    @Option(names = "--defaults", description = "Every key, its default and its meaning, as a config file.")
    boolean defaults;

    @Option(names = "--effective", paramLabel = "SPEC", description = "The merged configuration for this spec.")
    Path effective;
  }

  @Option(names = "--config", paramLabel = "FILE", description = "Config file (default: ./config.yaml when it exists).")
  Path config;

  @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override one config key. Repeatable.")
  List<String> overrides = new ArrayList<>();

  @Spec CommandSpec command;

  @Override
  public Integer call() {
    PrintWriter out = command.commandLine().getOut();
    if (mode.defaults) {
      out.println("# Berth configuration: every key with its default. Put the ones you change in ./config.yaml,");
      out.println("# in a spec's config: block, or pass them with --set key=value.");
      out.print(ConfigKeys.of(AdapterTables.ALL).defaultsYaml());
      out.flush();
      return ExitCodes.OK;
    }
    SpecOptions options = new SpecOptions();
    options.spec = mode.effective;
    options.config = config;
    options.overrides = overrides;
    try {
      RunSpec spec = options.load();
      out.print(ConfigKeys.of(AdapterTables.ALL).toYaml(spec));
      out.flush();
      return ExitCodes.OK;
    } catch (SpecException e) {
      command.commandLine().getErr().println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
  }
}

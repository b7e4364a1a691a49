package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.core.model.RunSpec;
import dev.berth.session.AdapterTables;
import dev.berth.spec.ConfigKeys;
import dev.berth.spec.SpecException;
import java.io.PrintWriter;

/**
 * {@code berth config --defaults} prints every key with its default and meaning (fedflow's
 * generate-config, as a commented config file); {@code berth config --effective SPEC} prints the
 * configuration a run of SPEC would use, after ./config.yaml, the spec and --set.
 */
final class ConfigCommand implements BerthCommand {

  private static final Option DEFAULTS =
      Option.flag("--defaults", "Every key, its default and its meaning, as a config file.");

  private static final Option EFFECTIVE =
      Option.value("--effective", "SPEC", "The merged configuration for this spec.");

  @Override
  public CommandSyntax syntax() {
    return CommandSyntax.describedAs("Print every config key with its default, or the effective config of a spec.")
        .oneOf(DEFAULTS, EFFECTIVE).options(SpecOptions.CONFIG, SpecOptions.SET).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) {
    if (args.flag(DEFAULTS)) {
      out.println("# Berth configuration: every key with its default. Put the ones you change in ./config.yaml,");
      out.println("# in a spec's config: block, or pass them with --set key=value.");
      out.print(ConfigKeys.of(AdapterTables.ALL).defaultsYaml());
      out.flush();
      return ExitCodes.OK;
    }
    SpecOptions options =
        new SpecOptions(args.path(EFFECTIVE), args.path(SpecOptions.CONFIG), null, args.values(SpecOptions.SET));
    try {
      RunSpec spec = options.load();
      out.print(ConfigKeys.of(AdapterTables.ALL).toYaml(spec));
      out.flush();
      return ExitCodes.OK;
    } catch (SpecException e) {
      err.println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
  }
}

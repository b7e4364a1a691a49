package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.core.model.RunSpec;
import java.io.BufferedOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code berth validate SPEC}: checks a spec and prints the expanded task list, with the tasks that
 * could never be placed on this host.
 */
final class ValidateCommand implements BerthCommand {

  @Override
  public CommandSyntax syntax() {
    CommandSyntax.Builder syntax =
        CommandSyntax.describedAs("Check a spec and print the expanded task list; starts nothing.");
    SpecOptions.declare(syntax);
    return syntax.build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) {
    Optional<RunSpec> loaded = new SpecOptions(args).loadOrReport(err);
    if (loaded.isEmpty()) {
      return ExitCodes.BAD_INPUT;
    }
    RunSpec spec = loaded.get();
    // Buffered, one write per 64 KiB of lines: a 100,000-task plan is as many lines.
    var stream = new PrintStream(
        new BufferedOutputStream(new WriterOutputStream(out), 1 << 16), false,
        StandardCharsets.UTF_8);
    PlanPrinter.print(spec, Path.of(spec.workdir()).toAbsolutePath().normalize(), stream);
    // The spec is valid wherever it runs; whether each task fits is this host's answer, said beside it.
    int never = spec.config().onCluster() ? 0 : DryRun.printNeverPlaced(spec, false, stream);
    stream.printf("spec OK: %d group%s, %d task%s%s%n",
        spec.groups().size(), spec.groups().size() == 1 ? "" : "s",
        spec.tasks().size(), spec.tasks().size() == 1 ? "" : "s",
        never == 0 ? "" : "; " + never + " of them can never be placed on this host (see above)");
    stream.flush();
    return ExitCodes.OK;
  }
}

package dev.berth.cli;

import dev.berth.core.model.RunSpec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code berth validate SPEC}: checks a spec and prints the expanded task list. */
@Command(name = "validate", description = "Check a spec and print the expanded task list; starts nothing.")
final class ValidateCommand implements Callable<Integer> {

  @Mixin SpecOptions specOptions;

  @Spec CommandSpec command;

  @Override
  public Integer call() {
    Optional<RunSpec> loaded = specOptions.loadOrReport(command.commandLine().getErr());
    if (loaded.isEmpty()) {
      return ExitCodes.BAD_INPUT;
    }
    RunSpec spec = loaded.get();
    var out = new PrintStream(new WriterOutputStream(command.commandLine().getOut()), true);
    PlanPrinter.print(spec, Path.of(spec.workdir()).toAbsolutePath().normalize(), out);
    out.printf("spec OK: %d group%s, %d task%s%n",
        spec.groups().size(), spec.groups().size() == 1 ? "" : "s",
        spec.tasks().size(), spec.tasks().size() == 1 ? "" : "s");
    return ExitCodes.OK;
  }
}

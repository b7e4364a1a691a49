package dev.berth.cli;

import dev.berth.core.model.RunSpec;
import java.io.BufferedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
    // Buffered, one write per 64 KiB of lines: a 100,000-task plan is as many lines.
    var out = new PrintStream(
        new BufferedOutputStream(new WriterOutputStream(command.commandLine().getOut()), 1 << 16), false,
        StandardCharsets.UTF_8);
    PlanPrinter.print(spec, Path.of(spec.workdir()).toAbsolutePath().normalize(), out);
    out.printf("spec OK: %d group%s, %d task%s%n",
        spec.groups().size(), spec.groups().size() == 1 ? "" : "s",
        spec.tasks().size(), spec.tasks().size() == 1 ? "" : "s");
    out.flush();
    return ExitCodes.OK;
  }
}

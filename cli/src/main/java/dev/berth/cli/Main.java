package dev.berth.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code berth} command. */
@Command(
    name = "berth",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Runs many compute tasks in parallel within the machine's CPU, memory and GPU limits.",
    subcommands = {
      RunCommand.class, ResumeCommand.class, StatusCommand.class, ReportCommand.class, ValidateCommand.class,
      CancelCommand.class, DevicesCommand.class, ConfigCommand.class, PsCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the command line with the given streams and returns the exit code (for tests). */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new Main());
    cli.setOut(out);
    cli.setErr(err);
    cli.setParameterExceptionHandler((ex, a) -> {
      err.println("berth: " + ex.getMessage() + " (see berth " + commandPath(ex.getCommandLine()) + "--help)");
      return ExitCodes.BAD_INPUT;
    });
    cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      err.println("berth: internal error: " + ex);
      ex.printStackTrace(err);
      return ExitCodes.INTERNAL;
    });
    return cli.execute(args);
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(new CommandLine(this), "a command is required: run, validate or help");
  }

  private static String commandPath(CommandLine cmd) {
    StringBuilder path = new StringBuilder();
    for (CommandLine c = cmd; c != null && c.getParent() != null; c = c.getParent()) {
      path.insert(0, c.getCommandName() + " ");
    }
    return path.toString();
  }

  /** Reads the version from the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"berth " + (v == null ? "development build" : v)};
    }
  }
}

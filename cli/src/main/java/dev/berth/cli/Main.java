package dev.berth.cli;

import dev.berth.session.AdapterTables;
import dev.berth.session.Warmup;
import dev.berth.spec.SpecLoader;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Entry point of the {@code berth} command. */
@Command(
    name = "berth",
    mixinStandardHelpOptions = true,
    scope = CommandLine.ScopeType.INHERIT, // every subcommand answers --help and -h
    versionProvider = Main.Version.class,
    description = "Runs many compute tasks in parallel within the machine's CPU, memory and GPU limits.")
public final class Main implements Runnable {

  /** The subcommands, in the order {@code berth --help} lists them. */
  private static final List<Class<?>> COMMANDS = List.of(
      RunCommand.class, ResumeCommand.class, StatusCommand.class, ReportCommand.class, ValidateCommand.class,
      CancelCommand.class, RetryCommand.class, DevicesCommand.class, ConfigCommand.class, PsCommand.class,
      ServeCommand.class, CommandLine.HelpCommand.class);

  /** The commands that run tasks here, whose start-up {@link Warmup} shortens. */
  private static final Set<String> RUNS_TASKS = Set.of("run", "resume", "retry");

  @Spec CommandSpec command;

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    if (args.length > 0 && RUNS_TASKS.contains(args[0])) {
      Warmup.begin(() -> SpecLoader.prepare(AdapterTables.ALL)); // while the command line and the spec are read
    }
    System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the command line with the given streams and returns the exit code (for tests). */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new Main());
    // Only the command asked for is modelled (building every command's options was most of a run's
    // start-up); help, a bare berth and anything unknown get them all, to list or suggest.
    Optional<Class<?>> asked = args.length == 0 ? Optional.empty() : COMMANDS.stream()
        .filter(c -> c != CommandLine.HelpCommand.class && c.getAnnotation(Command.class).name().equals(args[0]))
        .findFirst();
    asked.map(List::<Class<?>>of).orElse(COMMANDS).forEach(cli::addSubcommand);
    cli.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes (docs/exit-codes.md):%n")
        .exitCodeList(exitCodeList());
    cli.setOut(out);
    cli.setErr(err);
    cli.setParameterExceptionHandler((ex, a) -> {
      err.println("berth: " + ex.getMessage() + " (see berth " + commandPath(ex.getCommandLine()) + "--help)");
      return ExitCodes.BAD_INPUT;
    });
    cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      var fileTrouble = FileTrouble.describe(ex);
      if (fileTrouble.isPresent()) {
        err.println("berth: " + fileTrouble.get());
        return ExitCodes.INTERNAL;
      }
      err.println("berth: internal error: " + ex);
      ex.printStackTrace(err);
      return ExitCodes.INTERNAL;
    });
    return cli.execute(args);
  }

  /** Bare {@code berth}: lists every command, and exits 2 since nothing was asked. */
  @Override
  public void run() {
    command.commandLine().usage(command.commandLine().getErr());
    throw new CommandLine.ParameterException(command.commandLine(), "a command is required");
  }

  /** {@link ExitCodes#ALL} as {@code berth --help} lists it. */
  static java.util.Map<String, String> exitCodeList() {
    java.util.Map<String, String> list = new java.util.LinkedHashMap<>();
    ExitCodes.ALL.forEach(c -> list.put(Integer.toString(c.code()), c.meaning()));
    return list;
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

package dev.berth.cli;

import dev.berth.cli.args.BadUsage;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Parser;
import dev.berth.core.settings.Suggestions;
import dev.berth.session.Warmup;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Entry point of the {@code berth} command. */
public final class Main {

  /** What {@code berth} does, as its help says it. */
  static final String DESCRIPTION =
      "Runs many compute tasks in parallel within the machine's CPU, memory and GPU limits.";

  /** The commands that run tasks here, whose start-up {@link Warmup} shortens. */
  private static final Set<String> RUNS_TASKS = Set.of("run", "resume", "retry");

  private Main() {}

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    if (args.length > 0 && RUNS_TASKS.contains(args[0])) {
      Warmup.begin(); // while the command line and the spec are read
    }
    System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the command line with the given streams and returns the exit code (for tests). */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    try {
      BerthCommand command = args.length == 0 ? null : Commands.named(args[0]);
      return command != null
          ? SubcommandRunner.run(args[0], command, args, 1, out, err)
          : withoutCommand(args, out, err);
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** No command first: {@code --help}, {@code --version}, or a mistake. */
  private static int withoutCommand(String[] args, PrintWriter out, PrintWriter err) {
    try {
      var parsed = Parser.parse(syntax(), args, 0);
      if (parsed.helpAsked()) {
        out.print(BerthHelp.usage());
      } else if (parsed.versionAsked()) {
        out.println(version());
      } else {
        err.print(BerthHelp.usage());
        err.println("berth: a command is required (see berth --help)");
        return ExitCodes.BAD_INPUT;
      }
      return ExitCodes.OK;
    } catch (BadUsage e) {
      String mistake = args[0].startsWith("-") ? e.getMessage() : "unknown command '" + args[0] + "'";
      err.println("berth: " + mistake + didYouMean(args[0]) + " (see berth --help)");
      return ExitCodes.BAD_INPUT;
    }
  }

  /** What {@code berth} accepts before a command: the help and the version. */
  static CommandSyntax syntax() {
    return CommandSyntax.describedAs(DESCRIPTION).build();
  }

  /** {@code . Did you mean: run?} after a mistyped command; nothing when no command is close. */
  static String didYouMean(String typed) {
    if (typed.startsWith("-")) {
      return "";
    }
    return Suggestions.nearest(typed, Commands.NAMES).map(name -> ". Did you mean: " + name + "?").orElse("");
  }

  /** {@link ExitCodes#ALL} as {@code berth --help} lists it. */
  static Map<String, String> exitCodeList() {
    Map<String, String> list = new LinkedHashMap<>();
    ExitCodes.ALL.forEach(c -> list.put(Integer.toString(c.code()), c.meaning()));
    return list;
  }

  /** {@code berth} and its version, read from the jar's manifest. */
  static String version() {
    String v = Main.class.getPackage().getImplementationVersion();
    return "berth " + (v == null ? "development build" : v);
  }
}

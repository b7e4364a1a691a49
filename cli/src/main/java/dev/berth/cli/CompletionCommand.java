package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.BadUsage;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.CompletionScript;
import dev.berth.cli.args.Parameter;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code berth completion bash|zsh}: the shell completion script of {@code berth}, written from every
 * command's own table at each call, so that it offers whatever options this build has.
 */
final class CompletionCommand implements BerthCommand {

  private static final Parameter SHELL = Parameter.required("bash|zsh", "The shell to complete in.");

  @Override
  public CommandSyntax syntax() {
    return CommandSyntax.describedAs("Print the shell completion of berth's commands, options and values:"
        + " source <(berth completion bash) in ~/.bashrc, or the same with zsh in ~/.zshrc.")
        .parameter(SHELL).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) {
    Map<String, CommandSyntax> commands = new LinkedHashMap<>();
    Commands.NAMES.forEach(name -> commands.put(name, Commands.named(name).syntax()));
    String shell = args.value(SHELL);
    out.print(switch (shell) {
      case "bash" -> CompletionScript.bash("berth", Main.syntax(), commands);
      case "zsh" -> CompletionScript.zsh("berth", Main.syntax(), commands);
      default -> throw new BadUsage("the shell must be bash or zsh, not " + shell);
    });
    return ExitCodes.OK;
  }
}

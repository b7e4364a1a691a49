package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import java.io.IOException;
import java.io.PrintWriter;

/** {@code berth resume WORKDIR}: resumes a run that did not finish, with the spec it started with. */
final class ResumeCommand implements BerthCommand {

  private static final Option INSIDE_ALLOCATION = Option.flag("--inside-allocation",
      "Run as the engine inside a Slurm allocation that another Berth asked for.").hidden();

  @Override
  public CommandSyntax syntax() {
    CommandSyntax.Builder syntax =
        CommandSyntax.describedAs("Resume a run that did not finish, with the spec it started with.");
    StoredRunOptions.declare(syntax);
    return syntax.options(INSIDE_ALLOCATION).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) throws InterruptedException, IOException {
    boolean insideAllocation = args.flag(INSIDE_ALLOCATION);
    return new StoredRunOptions(args).execute(out, err, run -> insideAllocation ? run.insideAllocation() : run);
  }
}

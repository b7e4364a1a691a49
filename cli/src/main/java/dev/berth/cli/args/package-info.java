/**
 * Reading a command line: each command declares its {@link dev.berth.cli.args.Option options} and
 * {@link dev.berth.cli.args.Parameter positional parameters} in a {@link dev.berth.cli.args.CommandSyntax},
 * the {@link dev.berth.cli.args.Parser} matches the arguments against it, and
 * {@link dev.berth.cli.args.Usage} prints the help, {@link dev.berth.cli.args.CompletionScript} the shell
 * completion from the same tables. Plain code, no reflection: a command's table costs
 * what building a few small objects costs, which matters to a command whose start-up is measured.
 */
package dev.berth.cli.args;

package dev.berth.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the berth command line in-process and keeps what it printed. */
final class CliRunner {

  final int exitCode;
  final String out;
  final String err;

  private CliRunner(int exitCode, String out, String err) {
    this.exitCode = exitCode;
    this.out = out;
    this.err = err;
  }

  static CliRunner berth(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new CliRunner(code, out.toString(), err.toString());
  }
}

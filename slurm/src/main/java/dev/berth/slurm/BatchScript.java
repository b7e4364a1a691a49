package dev.berth.slurm;

import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Writes the batch scripts Berth hands to sbatch. A script exports the request's variables, runs the
 * argument vector exactly as given (every argument single-quoted, then {@code exec}ed in a subshell,
 * so no word of it is ever interpreted and a program named like a shell builtin still runs the
 * program), and writes the program's exit code to the attempt's exit-code file before exiting with
 * it. That file is Berth's most reliable source for the code: squeue forgets finished jobs after
 * {@code MinJobAge}, sacct lags and Slurm 22.05's JSON loses codes. Pure.
 */
public final class BatchScript {

  private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private BatchScript() {}

  /** The script of {@code request}'s attempt, in its working directory. */
  public static Path scriptFile(LaunchRequest request) {
    return request.workdir().toAbsolutePath().resolve("berth-slurm." + request.attempt() + ".sh");
  }

  /** The file the script writes the program's exit code to, in the working directory. */
  public static Path exitCodeFile(LaunchRequest request) {
    return request.workdir().toAbsolutePath().resolve("berth-exit-code." + request.attempt());
  }

  /**
   * The script for one job; sbatch sets its working directory and output files.
   *
   * @throws IllegalArgumentException when a variable name is not a shell name or a value holds a NUL
   */
  public static String forTask(LaunchRequest request) {
    return "#!/bin/sh\n"
        + "# Berth task " + request.task() + ", attempt " + request.attempt() + "\n"
        + body(request, "");
  }

  /**
   * The script for a job array whose element {@code i} runs {@code elements.get(i)} in its own working
   * directory, appending to its own output files.
   *
   * @throws IllegalArgumentException as {@link #forTask}, or when there are no elements
   */
  public static String forArray(String name, List<LaunchRequest> elements) {
    if (elements.isEmpty()) {
      throw new IllegalArgumentException("an array needs at least one element");
    }
    StringBuilder s = new StringBuilder("#!/bin/sh\n# Berth array ").append(name).append('\n')
        .append("case \"$SLURM_ARRAY_TASK_ID\" in\n");
    for (int i = 0; i < elements.size(); i++) {
      LaunchRequest r = elements.get(i);
      s.append(i).append(")\n")
          .append("  cd ").append(quote(r.workdir().toAbsolutePath().toString())).append(" || exit 1\n")
          .append("  exec >>").append(quote(r.stdout().toAbsolutePath().toString()))
          .append(" 2>>").append(quote(r.stderr().toAbsolutePath().toString())).append('\n')
          .append(body(r, "  "))
          .append("  ;;\n");
    }
    return s.append("*)\n  echo \"no task for array element $SLURM_ARRAY_TASK_ID\" >&2\n  exit 1\n  ;;\nesac\n")
        .toString();
  }

  /**
   * Quotes {@code word} for a POSIX shell: single quotes, with each {@code '} written as {@code '\''},
   * so spaces, {@code $}, backslashes, quotes and newlines all stay literal.
   *
   * @throws IllegalArgumentException when the word holds a NUL, which no argument can carry
   */
  public static String quote(String word) {
    if (word.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("an argument or value cannot contain a NUL character");
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }

  private static String body(LaunchRequest request, String indent) {
    StringBuilder s = new StringBuilder();
    for (Map.Entry<String, String> e : request.env().entrySet()) {
      if (!VARIABLE.matcher(e.getKey()).matches()) {
        throw new IllegalArgumentException("variable name '" + e.getKey() + "' cannot be set by a batch script;"
            + " names must match " + VARIABLE.pattern());
      }
      s.append(indent).append("export ").append(e.getKey()).append('=').append(quote(e.getValue())).append('\n');
    }
    String exit = quote(exitCodeFile(request).toString());
    String partial = quote(exitCodeFile(request) + ".tmp");
    s.append(indent).append("rm -f ").append(exit).append('\n');
    s.append(indent).append("( exec");
    for (String word : request.command()) {
      s.append(' ').append(quote(word));
    }
    s.append(" )\n")
        .append(indent).append("berth_code=$?\n")
        .append(indent).append("printf '%s\\n' \"$berth_code\" >").append(partial)
        .append(" && mv -f ").append(partial).append(' ').append(exit).append('\n')
        .append(indent).append("exit \"$berth_code\"\n");
    return s.toString();
  }
}

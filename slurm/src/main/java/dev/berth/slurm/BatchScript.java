package dev.berth.slurm;

import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    return forTask(request, Optional.empty());
  }

  /**
   * The script for one job that gets {@code signal} before its time limit ({@code --signal=B:...}), which
   * it passes on to the program: the program then runs in the background while the script waits, so
   * the script's trap can run while it does.
   *
   * @throws IllegalArgumentException as {@link #forTask(LaunchRequest)}
   */
  public static String forTask(LaunchRequest request, Optional<JobSignal> signal) {
    return "#!/bin/sh\n"
        + "# Berth task " + request.task() + ", attempt " + request.attempt() + "\n"
        + body(request, "", signal);
  }

  /** The lines of an array's task list: {@code <index> <task id>} for each element, in order. */
  public static String taskList(List<LaunchRequest> elements) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < elements.size(); i++) {
      s.append(i).append(' ').append(elements.get(i).task()).append('\n');
    }
    return s.toString();
  }

  /**
   * The script for a job array whose element {@code i} runs {@code elements.get(i)} in its own working
   * directory, appending to its own output files.
   *
   * @throws IllegalArgumentException as {@link #forTask}, or when there are no elements
   */
  public static String forArray(String name, List<LaunchRequest> elements) {
    return forArray(name, elements, Optional.empty());
  }

  /**
   * The script for a job array whose elements get {@code signal} before their time limit, passed on to
   * each element's program as {@link #forTask(LaunchRequest, Optional)} does.
   *
   * @throws IllegalArgumentException as {@link #forArray(String, List)}
   */
  public static String forArray(String name, List<LaunchRequest> elements, Optional<JobSignal> signal) {
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
          .append(body(r, "  ", signal))
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

  private static String body(LaunchRequest request, String indent, Optional<JobSignal> signal) {
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
    if (signal.isPresent()) {
      // set before the program starts, so a signal never finds the script without it
      String name = signal.get().name();
      s.append(indent).append("berth_child=\n")
          .append(indent).append("trap '[ -n \"$berth_child\" ] && kill -").append(name)
          .append(" \"$berth_child\" 2>/dev/null' ").append(name).append('\n');
    }
    s.append(indent).append("( exec");
    for (String word : request.command()) {
      s.append(' ').append(quote(word));
    }
    if (signal.isEmpty()) {
      s.append(" )\n").append(indent).append("berth_code=$?\n");
    } else {
      // A trap runs only between commands, never during a foreground one: so the program runs in the
      // background, and each wait the signal interrupts is waited again until the program has ended.
      s.append(" ) &\n")
          .append(indent).append("berth_child=$!\n")
          .append(indent).append("wait \"$berth_child\"\n")
          .append(indent).append("berth_code=$?\n")
          .append(indent).append("while kill -0 \"$berth_child\" 2>/dev/null; do wait \"$berth_child\"; berth_code=$?;"
              + " done\n");
    }
    s
        .append(indent).append("printf '%s\\n' \"$berth_code\" >").append(partial)
        .append(" && mv -f ").append(partial).append(' ').append(exit).append('\n')
        .append(indent).append("exit \"$berth_code\"\n");
    return s.toString();
  }
}

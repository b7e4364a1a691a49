package dev.berth.runtime.exec;

import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The supervisor each attempt of a run starts under: a fixed {@code /bin/sh} script that stays the
 * command's parent, waits for it and appends its exit code to the run's exit marks, then exits with
 * that code. The exit is so recorded even when no Berth is alive to reap the process (one killed
 * with SIGKILL, or stopped by a full disk), and a resumed run reads it instead of guessing.
 *
 * <p>The command's arguments are positional parameters the shell never parses; its program is
 * given by its absolute path, so a name that is also a shell builtin ({@code echo}, {@code kill})
 * still runs the program. The script traps SIGHUP, SIGINT and SIGTERM with a no-op, so a signal
 * that reaches it too (Berth signals a task's whole tree and container) leaves it waiting for the
 * command, whose own handling of the signal decides its exit code; a trap is reset in the command,
 * which gets the signals' dispositions as before. The process Berth started, the one a resume
 * adopts, is this script: {@link #isSupervisor(List)} tells it from the command's own processes,
 * which carry the same variables.
 */
public final class Supervision {

  /** The run's exit marks, in the run folder: a line per exit, {@code attempt}, {@code code} and the task's folder. */
  public static final String MARKS_FILE = ".berth-exits";

  /** The name the supervisor runs under ({@code $0}), which marks it among the run's processes. */
  static final String NAME = "berth-task";

  private static final String SHELL = "/bin/sh";

  private Supervision() {}

  /**
   * The argument vector and program to start for {@code request}: under the supervisor when the
   * request is an attempt of a run (its variables name the run folder and the attempt), else its own.
   *
   * @param program the request's program as looked up on the attempt's PATH
   */
  static Start of(LaunchRequest request, Path program) {
    String runDir = request.env().get("BERTH_RUN_DIR");
    String attempt = request.env().get("BERTH_ATTEMPT");
    if (runDir == null || attempt == null || !attempt.matches("[0-9]+")) {
      return new Start(request.command(), program);
    }
    Path marks = Path.of(runDir).toAbsolutePath().resolve(MARKS_FILE);
    // The shell's own stderr goes to /dev/null and the command gets the log as its stderr through
    // fd 3 in a subshell it replaces: a shell reports a job a signal ended ("Terminated") on its
    // own stderr, which would otherwise be the task's log.
    String script = "trap : HUP INT TERM\nexec 3>&2 2>/dev/null\n(exec \"$@\" 2>&3 3>&-)\nc=$?\n"
        + "printf '%s\\t%s\\t%s\\n' " + attempt + " \"$c\" " + quoted(request.workdir().toAbsolutePath().toString())
        + " 2>/dev/null >>" + quoted(marks.toString()) + "\nexit \"$c\"\n";
    List<String> argv = new ArrayList<>(request.command().size() + 4);
    argv.addAll(List.of(SHELL, "-c", script, NAME, program.toAbsolutePath().toString()));
    argv.addAll(request.command().subList(1, request.command().size()));
    return new Start(argv, Path.of(SHELL));
  }

  /** Whether a process's argument vector is a supervisor's (its {@code /proc/PID/cmdline}, split at NULs). */
  public static boolean isSupervisor(List<String> cmdline) {
    return cmdline.size() >= 5 && cmdline.get(0).equals(SHELL) && cmdline.get(1).equals("-c")
        && cmdline.get(2).startsWith("trap : HUP INT TERM\n") && cmdline.get(3).equals(NAME);
  }

  /** A line of the run's exit marks. */
  public static String markLine(int attempt, String code, Path taskDir) {
    return attempt + "\t" + code + "\t" + taskDir.toAbsolutePath() + "\n";
  }

  /** {@code text} as one single-quoted shell word. */
  private static String quoted(String text) {
    return "'" + text.replace("'", "'\\''") + "'";
  }

  /**
   * What a spawner starts.
   *
   * @param argv the argument vector
   * @param program its program, as found on the PATH
   */
  record Start(List<String> argv, Path program) {}
}

package dev.berth.cli;

import dev.berth.core.model.RunSpec;
import dev.berth.core.report.RunStatus;
import dev.berth.core.scheduling.RetrySelection;
import dev.berth.session.LocalSession;
import dev.berth.session.RunEnd;
import dev.berth.session.RunFinishedException;
import dev.berth.session.SessionException;
import dev.berth.session.SessionOptions;
import dev.berth.session.SpecChange;
import dev.berth.spi.JobsOnExit;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The {@code run} and {@code resume} commands' front door to a {@link LocalSession}: the session
 * wires and runs the run; this shows it on the console, asks what Ctrl-C does to Slurm jobs, turns
 * refusals into Berth's one-line errors, and has the session submit the allocations of {@code slurm.mode: allocation}.
 */
final class LocalRun {

  private final PrintStream out;
  private final PrintWriter err;
  private final boolean progress;
  private UnaryOperator<RunSpec> adjust = UnaryOperator.identity();
  private boolean insideAllocation;
  private Path specFile;
  private RetrySelection retry;
  private boolean hostLedger = true;
  private boolean allowNonEmptyWorkdir;
  private volatile boolean inAllocations;

  LocalRun(PrintStream out, PrintWriter err, boolean progress) {
    this.out = out;
    this.err = err;
    this.progress = progress;
  }

  /** Settings of this session only ({@code --on-exit}), applied to the run the journal gave. */
  LocalRun adjust(UnaryOperator<RunSpec> change) {
    this.adjust = change;
    return this;
  }

  /** The file the spec was read from: its folder is not a workdir. */
  LocalRun specFile(Path file) {
    this.specFile = file;
    return this;
  }

  /** Reopens these tasks of a run that ended before it goes on ({@code berth retry}). */
  LocalRun retry(RetrySelection selection) {
    this.retry = selection;
    return this;
  }

  /** Whether the run shares the host ledger ({@code --host-ledger}). */
  LocalRun hostLedger(boolean shared) {
    this.hostLedger = shared;
    return this;
  }

  /** Whether a first run may start among files already in its folder ({@code --workdir-allow-nonempty}). */
  LocalRun allowNonEmptyWorkdir(boolean allow) {
    this.allowNonEmptyWorkdir = allow;
    return this;
  }

  /** Runs as the engine inside a Slurm allocation that another Berth asked for (see {@link LocalSession#runInAllocations}). */
  LocalRun insideAllocation() {
    this.insideAllocation = true;
    return this;
  }

  /**
   * Runs (or resumes) the run in {@code runDir}.
   *
   * @param runDir the run's folder, as {@link LocalSession#runDir} names it
   * @param spec the spec given now, or null to resume with the spec the run started with
   * @param journaled whether to keep a journal; without one the run cannot resume
   */
  int execute(RunSpec spec, Path runDir, SpecChange allow, boolean fresh, boolean journaled)
      throws InterruptedException, IOException {
    boolean terminal = System.console() != null && progress;
    boolean color = terminal && System.getenv("NO_COLOR") == null;
    ConsoleView console = new ConsoleView(out, terminal, color, InstantSource.system());
    SessionOptions options = SessionOptions.builder(runDir)
        .spec(spec)
        .specFile(specFile)
        .specChange(allow)
        .fresh(fresh)
        .allowNonEmptyWorkdir(allowNonEmptyWorkdir)
        .journaled(journaled)
        .insideAllocation(insideAllocation)
        .retry(retry)
        .hostLedger(hostLedger)
        .adjust(adjust)
        .listener(console)
        .leaveJobs(setting -> leaveJobs(console, setting, runDir))
        .say(out::println)
        .warn(err::println)
        .build();
    try (console; LocalSession session = LocalSession.open(options)) {
      if (session.inAllocations()) {
        inAllocations = true; // Ctrl-C: the session says what happens to the allocation
        return session.runInAllocations() ? ExitCodes.OK : ExitCodes.TASKS_FAILED;
      }
      RunEnd end;
      Optional<Signals.Caught> signal = Optional.empty();
      if (session.spec().config().onCluster()) {
        end = session.run(); // a signal runs the session's shutdown hook, which carries out slurm.on-exit
      } else {
        try (Signals signals = Signals.handle(
            caught -> session.interrupt("interrupted by " + caught.fullName()),
            caught -> err.println("berth: " + caught.fullName() + ": stopping already; running tasks get SIGKILL"
                + " 5 s after SIGTERM"))) {
          end = session.run();
          signal = signals.first();
        }
      }
      console.close();
      console.summary(end.report(), end.reportJson(), end.reports().orElseThrow().html());
      return exitCode(end.report().status(), signal, runDir);
    } catch (RunFinishedException e) {
      out.println(e.run() + " finished already (" + e.status() + "); its report is " + e.reportJson()
          + e.unapplied().map(c -> ". The spec given changed (" + c + "); --allow-changed=stored left that aside")
              .orElse("")
          + ". Use berth retry " + runDir + " to run what did not succeed again, " + fresh(spec)
          + " to start it over, or berth report to rebuild the reports.");
      return e.status() == RunStatus.SUCCEEDED ? ExitCodes.OK : ExitCodes.TASKS_FAILED;
    } catch (SessionException e) {
      // a refusal that lists changes on lines of their own gives its hint on its first line
      String message = e.getMessage();
      int lineEnd = message.indexOf('\n') < 0 ? message.length() : message.indexOf('\n');
      err.println("berth: " + message.substring(0, lineEnd) + hint(e.reason()).replace("--fresh", fresh(spec))
          + message.substring(lineEnd));
      return ExitCodes.BAD_INPUT;
    }
  }

  /**
   * The exit code of a run that ended so: 128 + the signal's number when a signal stopped Berth (130
   * for SIGINT), as a shell expects of a program a signal stopped, even when every task had ended by
   * then; 0 when every task succeeded; 1 otherwise.
   */
  private int exitCode(RunStatus status, Optional<Signals.Caught> signal, Path runDir) {
    if (status == RunStatus.INTERRUPTED) {
      out.println("berth: the run was interrupted" + signal.map(c -> " by " + c.fullName()).orElse("")
          + "; berth resume " + runDir + " (or the same berth run) goes on where it stopped");
    }
    if (signal.isPresent()) {
      return ExitCodes.interruptedBy(signal.get().number());
    }
    if (status == RunStatus.INTERRUPTED) {
      return ExitCodes.INTERRUPTED_SIGTERM;
    }
    return status == RunStatus.SUCCEEDED ? ExitCodes.OK : ExitCodes.TASKS_FAILED;
  }

  /**
   * How to start the run over: {@code --fresh} on the command that has it, and on {@code berth resume},
   * which goes on with the stored spec ({@code spec} null) and does not, {@code berth run} with it.
   */
  private static String fresh(RunSpec spec) {
    return spec == null ? "berth run SPEC --fresh" : "--fresh";
  }

  /** The flags that help with a refusal. */
  private static String hint(SessionException.Reason reason) {
    return switch (reason) {
      case SPEC_UNREADABLE -> "; use --fresh to start over";
      case JOURNAL_LOST -> " (--fresh moves the folder aside and starts over)";
      case SPEC_CHANGED -> " (use --allow-changed=stored to go on with the spec it started with, --allow-changed=new to"
          + " apply the changes, or --fresh to start over)";
      case WORKDIR_NOT_EMPTY -> " (--workdir-allow-nonempty)";
      default -> "";
    };
  }

  /**
   * Ctrl-C on a cluster: the live view holds still while {@code slurm.on-exit} is carried out, or asked;
   * an allocation left running the session announces itself.
   */
  private boolean leaveJobs(ConsoleView console, JobsOnExit setting, Path runDir) {
    console.holdStill();
    if (!OnExit.leaveJobs(setting, out)) {
      return false;
    }
    if (inAllocations) {
      return true;
    }
    out.println("berth: submitted Slurm jobs are left running; berth resume " + runDir + " finds them again");
    return true;
  }
}

package dev.berth.session;

import dev.berth.core.model.RunSpec;
import dev.berth.runtime.control.RunLock;
import dev.berth.report.ReportJson;
import dev.berth.slurm.SlurmExecutor;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The first steps of opening a run in its folder, before anything of it starts: whether this
 * machine can run it at all, the folder's lock, and the journal that says whether it starts fresh
 * or resumes, and with which spec.
 */
final class RunFolder {

  private RunFolder() {}

  /**
   * Refuses a spec whose tasks are to run on Slurm when this machine cannot submit jobs; inside an
   * allocation the tasks run here, so nothing is refused.
   */
  static void refuseUnusable(RunSpec spec, SessionOptions o) throws SessionException {
    if (!spec.config().onCluster() || o.insideAllocation()) {
      return;
    }
    String path = o.env().apply("PATH");
    Optional<String> problem = SlurmExecutor.unusableHere(path == null ? "" : path);
    if (problem.isPresent()) {
      throw new SessionException(problem.get());
    }
  }

  /**
   * Refuses a workdir that is the root folder, the user's home folder or the folder of the spec's
   * own file: Berth writes its {@code .berth/} folder, task folders and reports into a workdir, and
   * {@code --fresh} moves it aside whole.
   */
  static void refuseUnsafeWorkdir(Path runDir, SessionOptions o) throws SessionException {
    Path dir = real(runDir);
    String why = null;
    if (dir.getParent() == null) {
      why = "the root folder";
    } else if (home(o).map(RunFolder::real).filter(dir::equals).isPresent()) {
      why = "your home folder";
    } else if (o.specFile().map(f -> real(f.toAbsolutePath().getParent())).filter(dir::equals).isPresent()) {
      why = "the folder of the spec file";
    }
    if (why != null) {
      throw new SessionException("the workdir " + runDir + " is " + why + "; a run needs a folder of its own, such as"
          + " berth-out/<name> (the default when the spec sets no workdir)");
    }
  }

  private static Optional<Path> home(SessionOptions o) {
    String home = o.env().apply("HOME");
    return Optional.ofNullable(home != null && !home.isBlank() ? home : System.getProperty("user.home")).map(Path::of);
  }

  /** The folder as the file system knows it (links followed) when it exists, else absolute and normal. */
  private static Path real(Path p) {
    Path absolute = p.toAbsolutePath().normalize();
    try {
      return absolute.toRealPath();
    } catch (IOException e) {
      return absolute;
    }
  }

  /**
   * Takes the folder's lock, first moving an earlier run aside when the options ask for a fresh one.
   * A folder that holds files but never held a run is not moved: it is refused.
   *
   * @return the lock, or null inside an allocation, whose lock the Berth that asked for it holds
   * @throws SessionException naming the holder when another run holds the folder, or when a fresh
   *     start would move a folder that is not a run's
   */
  static RunLock lock(Path runDir, SessionOptions o, Instant now) throws SessionException, IOException {
    if (o.insideAllocation()) {
      return null;
    }
    long pid = ProcessHandle.current().pid();
    try {
      if (o.fresh()) {
        refuseForeign(runDir);
        RunLock.setAside(runDir, pid, now)
            .ifPresent(p -> o.say("the previous run in this folder was moved to " + p));
      }
      Files.createDirectories(runDir);
      return RunLock.acquire(runDir, pid, now);
    } catch (RunLock.LockedException e) {
      throw new SessionException(e.getMessage());
    }
  }

  /** A fresh start moves aside only a folder that is empty or holds a run: Berth's {@code .berth/} folder. */
  private static void refuseForeign(Path runDir) throws SessionException, IOException {
    if (!Files.isDirectory(runDir) || Files.isDirectory(runDir.resolve(".berth"))) {
      return;
    }
    try (Stream<Path> entries = Files.list(runDir)) {
      if (entries.findAny().isPresent()) {
        throw new SessionException(runDir + " holds files but no Berth run (no .berth folder), so a fresh start does"
            + " not move it aside; choose another workdir");
      }
    }
  }

  /**
   * Opens the run's journal (or none, when the options keep none) and says when the run resumes.
   * A run that finished already is refused; when its scheduler stopped before writing its reports
   * (none are there, or those of an earlier, interrupted segment), they are rebuilt from the journal first.
   */
  static RunJournal.Opened journal(Path runDir, SessionOptions o, Instant now) throws SessionException, IOException {
    if (!o.journaled()) {
      return new RunJournal.Opened(null, o.spec().orElseThrow(), Optional.empty());
    }
    RunJournal.Opened opened;
    try {
      opened = RunJournal.open(runDir, o.spec().orElse(null), o.specChange(), o.keepOpen(), o.retry().orElse(null), now);
    } catch (RunFinishedException e) {
      if (!ReportJson.reportsEnd(e.reportJson(), e.status(), e.finishedAt())) {
        JournalView view = JournalView.read(runDir);
        RunReports.rebuild(view, view.report(now));
      }
      throw e;
    } catch (JournalException e) {
      if (e.unwritable()) {
        // the machine refuses Berth a file it needs, as a full disk does: the command's exit says so
        throw new IOException(e.getMessage(), e);
      }
      throw new SessionException(e.missesCommits() ? SessionException.Reason.JOURNAL_LOST
          : SessionException.Reason.REFUSED, e.getMessage(), e);
    }
    opened.news().forEach(o::say);
    opened.replay().ifPresent(r -> o.say("resuming " + opened.spec().name() + " (" + r.events().size()
        + " events from " + RunJournal.file(runDir) + ")"));
    return opened;
  }

  static void closeQuietly(Journal journal) {
    if (journal != null) {
      RunParts.closeQuietly(journal);
    }
  }
}

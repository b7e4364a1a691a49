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
    } else if (homes(o).map(RunFolder::real).anyMatch(dir::equals)) {
      why = "your home folder";
    } else if (o.specFile().map(f -> real(f.toAbsolutePath().getParent())).filter(dir::equals).isPresent()) {
      why = "the folder of the spec file";
    }
    if (why != null) {
      throw new SessionException("the workdir " + runDir + " is " + why + "; a run needs a folder of its own, such as"
          + " berth-out/<name> (the default when the spec sets no workdir)");
    }
  }

  /**
   * The user's home folders: {@code $HOME}, and the account's own from the password database (the
   * JVM's {@code user.home}), which stays the home however {@code HOME} is set.
   */
  private static Stream<Path> homes(SessionOptions o) {
    return Stream.of(o.env().apply("HOME"), System.getProperty("user.home"))
        .filter(h -> h != null && !h.isBlank() && !h.equals("?")).map(Path::of);
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
   * A folder that holds files but never held a run is neither moved nor, unless the options allow
   * it, used: it is refused.
   *
   * @return the lock, or null inside an allocation, whose lock the Berth that asked for it holds
   * @throws SessionException naming the holder when another run holds the folder, when a fresh
   *     start would move a folder that is not only a run's, or when a run would start among files
   *     that are not a run's
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
      if (o.spec().isPresent() && refuseOthersFiles(runDir, o)) {
        markShared(runDir, now); // before the lock, so that no run here is ever without its mark
      }
      Files.createDirectories(runDir);
      return RunLock.acquire(runDir, pid, now);
    } catch (RunLock.LockedException e) {
      throw new SessionException(e.getMessage());
    }
  }

  /**
   * The file that marks a folder whose other files were there before its first run (the user chose
   * it with {@link SessionOptions.Builder#allowNonEmptyWorkdir}): a fresh start does not move it aside.
   */
  static Path sharedMark(Path runDir) {
    return runDir.resolve(".berth").resolve("shared-folder");
  }

  /**
   * Whether a run was ever started in the folder: Berth takes the lock (and keeps a journal) in
   * {@code .berth/} before anything of a run is written, so a folder without either never held one.
   */
  private static boolean heldARun(Path runDir) {
    return Files.exists(RunLock.file(runDir)) || Files.exists(RunJournal.file(runDir));
  }

  /** Whether the folder holds anything besides Berth's own {@code .berth/} folder. */
  private static boolean holdsOthersFiles(Path runDir) throws IOException {
    if (!Files.isDirectory(runDir)) {
      return false;
    }
    try (Stream<Path> entries = Files.list(runDir)) {
      return entries.anyMatch(p -> !p.getFileName().toString().equals(".berth"));
    }
  }

  /**
   * A run starts in an empty (or new) folder or in one that held a run: among files that are not a
   * run's only when the options allow it.
   *
   * @return whether the run starts among files that are not a run's, so the folder is to be marked
   */
  private static boolean refuseOthersFiles(Path runDir, SessionOptions o) throws SessionException, IOException {
    if (heldARun(runDir) || !holdsOthersFiles(runDir)) {
      return false;
    }
    if (!o.allowNonEmptyWorkdir()) {
      throw new SessionException(SessionException.Reason.WORKDIR_NOT_EMPTY, "the workdir " + runDir + " holds files"
          + " but no Berth run, and a run writes its .berth folder, task folders and reports there; choose an empty"
          + " or new workdir, or allow a run among its files", null);
    }
    return true;
  }

  private static void markShared(Path runDir, Instant now) throws IOException {
    Files.createDirectories(sharedMark(runDir).getParent());
    Files.writeString(sharedMark(runDir), "This folder held other files before Berth's first run here (" + now
        + "), so berth run --fresh does not move it aside.\n");
  }

  /**
   * A fresh start moves aside only a folder that is empty or holds nothing but a run: one that held
   * a run and no files of the user's before it.
   */
  private static void refuseForeign(Path runDir) throws SessionException, IOException {
    if (!holdsOthersFiles(runDir)) {
      return;
    }
    if (!heldARun(runDir)) {
      throw new SessionException(runDir + " holds files but no Berth run, so a fresh start does"
          + " not move it aside; choose another workdir");
    }
    if (Files.exists(sharedMark(runDir))) {
      throw new SessionException(runDir + " held files of its own before its first Berth run, so a fresh start does"
          + " not move it aside; remove the run's .berth folder, task folders and reports to start over there, or"
          + " choose another workdir");
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

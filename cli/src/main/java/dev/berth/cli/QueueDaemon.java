package dev.berth.cli;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.RunReport;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.runtime.engine.RunListener;
import dev.berth.session.LocalSession;
import dev.berth.session.QueueKeys;
import dev.berth.session.SessionException;
import dev.berth.session.SessionOptions;
import dev.berth.spec.SpecException;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A user's queue: the process {@code berth submit} starts, detached, when none holds the queue's
 * run. It opens the run kept open for submissions (resuming its journal, as {@code berth resume}
 * would), adds each task of the inbox the run does not hold yet, woken by the file system as a
 * submission is renamed into the inbox, and ends once nothing was left to run for {@code
 * queue.idle-exit}, leaving the run to be resumed by the next submit.
 *
 * <p>A task is added once: the inbox file is written before its id is printed, and the run's
 * journal holds the task (with the spec it grew by) before the next start; whatever was written
 * and not yet journaled when the queue was killed is added by the next queue, after its resume.
 */
final class QueueDaemon implements RunListener {

  private final QueueFolder queue;
  private final PrintStream log;
  /** The ids of the tasks that have not ended, kept by the engine's thread and read by the inbox's. */
  private final Set<String> unfinished = ConcurrentHashMap.newKeySet();
  private volatile Instant lastEnded = Instant.now();
  private volatile WatchService watch;
  private volatile boolean stopped;

  private QueueDaemon(QueueFolder queue, PrintStream log) {
    this.queue = queue;
    this.log = log;
  }

  /**
   * Starts the queue's process, detached from the caller's terminal: a session of its own where
   * {@code setsid} is found, standard input from {@code /dev/null}, output appended to
   * {@code queue.log}, with the caller's environment.
   *
   * @return its pid
   */
  static long start(QueueFolder queue, Map<String, String> env) throws IOException {
    queue.create();
    List<String> argv = new ArrayList<>();
    for (String setsid : List.of("/usr/bin/setsid", "/bin/setsid")) {
      if (Files.isExecutable(Path.of(setsid))) {
        argv.add(setsid);
        break;
      }
    }
    argv.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-cp", absolute(System.getProperty("java.class.path")),
        Main.class.getName(), "queue", "--daemon"));
    ProcessBuilder builder = new ProcessBuilder(argv).directory(queue.dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(queue.log().toFile()));
    builder.environment().clear();
    builder.environment().putAll(env);
    return builder.start().pid();
  }

  private static String absolute(String classPath) {
    List<String> parts = new ArrayList<>();
    for (String p : classPath.split(File.pathSeparator)) {
      parts.add(p.isEmpty() ? p : Path.of(p).toAbsolutePath().toString());
    }
    return String.join(File.pathSeparator, parts);
  }

  /**
   * Runs the queue until it was idle for {@code queue.idle-exit}, or a signal or a failure stops it.
   *
   * @return the exit code
   */
  static int run(QueueFolder queue, PrintStream log) throws IOException, InterruptedException {
    QueueSpecs specs;
    RunSpec spec;
    try {
      specs = QueueSpecs.of(queue);
      spec = specs.run();
    } catch (SpecException e) {
      log.println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    return new QueueDaemon(queue, log).serve(specs, spec);
  }

  private int serve(QueueSpecs specs, RunSpec spec) throws IOException, InterruptedException {
    Duration idle = QueueKeys.TABLE.of(spec).idleExit();
    SessionOptions options = SessionOptions.builder(queue.runDir()).spec(spec).keepOpen(true).listener(this)
        .writeReports(false) // the queue's state is its journal, which berth queue reads
        .onJvmExit(SessionOptions.JvmExit.LEAVE_RESUMABLE) // a signal leaves it to the next submit, as a kill does
        .say(log::println).warn(log::println).build();
    queue.create();
    LocalSession session;
    try {
      session = LocalSession.open(options);
    } catch (SessionException e) {
      log.println("berth: queue " + queue.dir + ": " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    log.println(Instant.now() + " queue started (pid " + ProcessHandle.current().pid() + ")"
        + (session.resumed() ? ", resumed from its journal" : ""));
    Set<String> held = new HashSet<>();
    session.state().tasks().forEach(t -> held.add(t.spec().id().value()));
    boolean ended = false;
    try (WatchService w = FileSystems.getDefault().newWatchService()) {
      watch = w;
      queue.inbox().register(w, StandardWatchEventKinds.ENTRY_CREATE); // before the first look: nothing falls between
      Map<Integer, CompletableFuture<Void>> waiting = offer(specs, session, held);
      session.start(failure -> {
        log.println("berth: the queue stopped: " + failure);
        stop();
      });
      settle(waiting);
      while (!stopped) {
        if (add(specs, session, held) > 0) {
          continue;
        }
        Duration left = unfinished.isEmpty() ? Duration.between(Instant.now(), lastEnded.plus(idle)) : idle;
        if (left.isNegative() || left.isZero()) {
          ended = queue.locked(() -> {
            if (add(specs, session, held) > 0 || !unfinished.isEmpty()) {
              return false; // a submission came as the queue was about to end
            }
            log.println(Instant.now() + " queue ends: nothing to run for " + idle.toSeconds() + " s");
            session.closeResumable(); // releases the run while submits wait: the next one starts a new queue
            return true;
          });
          if (ended) {
            return ExitCodes.OK;
          }
          continue;
        }
        WatchKey key = w.poll(Math.max(1, left.toMillis()), TimeUnit.MILLISECONDS);
        if (key != null) {
          key.pollEvents();
          key.reset();
        }
      }
    } catch (ClosedWatchServiceException e) {
      // the run ended (a signal, a failure): nothing more is taken
    } finally {
      if (!ended) {
        session.closeResumable();
      }
    }
    return ExitCodes.OK;
  }

  /** Adds every submission the run does not hold yet, in id order, and waits until the run holds them; how many. */
  private int add(QueueSpecs specs, LocalSession session, Set<String> held) throws IOException {
    return settle(offer(specs, session, held));
  }

  /**
   * Hands the run every submission it does not hold yet, in id order, without waiting: before the
   * run starts, so that a cancel request waiting for one of them comes after it.
   */
  private Map<Integer, CompletableFuture<Void>> offer(QueueSpecs specs, LocalSession session, Set<String> held)
      throws IOException {
    Map<Integer, CompletableFuture<Void>> offered = new LinkedHashMap<>();
    for (int id : queue.ids()) {
      String key = Integer.toString(id);
      if (held.contains(key) || queue.refusal(id).isPresent()) {
        continue;
      }
      held.add(key);
      try {
        TaskSpec task = specs.task(queue.submission(id).orElseThrow());
        unfinished.add(key);
        offered.put(id, session.submit(new GroupSpec(QueueFolder.GROUP, List.of(task))));
      } catch (SpecException e) {
        refuse(id, e.getMessage());
      }
    }
    return offered;
  }

  /** Waits until the run took each offered task; records why it refused one. How many it took. */
  private int settle(Map<Integer, CompletableFuture<Void>> offered) throws IOException {
    int added = 0;
    for (Map.Entry<Integer, CompletableFuture<Void>> e : offered.entrySet()) {
      try {
        e.getValue().get();
        added++;
      } catch (ExecutionException ex) {
        refuse(e.getKey(), String.valueOf(ex.getCause().getMessage()));
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while adding task " + e.getKey(), ex);
      }
    }
    return added;
  }

  private void refuse(int id, String why) throws IOException {
    unfinished.remove(Integer.toString(id));
    log.println("berth: task " + id + " refused: " + why);
    queue.refuse(id, why);
  }

  private void stop() {
    stopped = true;
    WatchService w = watch;
    if (w != null) {
      try {
        w.close(); // wakes the inbox's thread
      } catch (IOException e) {
        // closing is best effort
      }
    }
  }

  @Override
  public void runStarted(RunState state) {
    for (TaskRecord r : state.tasks()) {
      if (!r.state().isTerminal()) {
        unfinished.add(r.spec().id().value());
      }
    }
  }

  @Override
  public void taskEvent(TaskRecord task, TaskEvent event) {
    String id = task.spec().id().value();
    if (task.state().isTerminal()) {
      // the inbox's thread, waiting at most queue.idle-exit, counts the idle time again from here when it wakes
      if (unfinished.remove(id) && unfinished.isEmpty()) {
        lastEnded = Instant.now();
      }
    } else {
      unfinished.add(id);
    }
  }

  @Override
  public void runFinished(RunReport report) {
    stop();
  }
}

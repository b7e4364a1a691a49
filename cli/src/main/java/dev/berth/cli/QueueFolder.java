package dev.berth.cli;

import dev.berth.session.LiveRuns;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A user's queue on this host ({@code berth submit}, docs/queue.md): {@code ~/.berth/queue/<host>/},
 * holding {@code inbox/} (one file per task ever submitted, written whole by a rename before its id
 * is printed: the durable record a queue killed at any moment goes on from), {@code run/} (the
 * queue's Berth run: its journal, its tasks' folders and logs), {@code last-id} (the ids given so
 * far), {@code submit.lock} (held while a task is written and while the queue decides to end, so
 * that no submission falls between a queue that ends and the next one) and {@code queue.log} (the
 * queue's own output). The folder is per host because a home folder may be shared by several.
 */
final class QueueFolder {

  /** The group every queued task joins, which names the tasks' folders: {@code run/queue/<id>/}. */
  static final String GROUP = "queue";

  /** The run's name, as {@code berth ps} lists it. */
  static final String RUN_NAME = "queue";

  private static final Pattern ID = Pattern.compile("[1-9][0-9]{0,9}");

  final Path dir;
  private final Path home;

  private QueueFolder(Path home, Path dir) {
    this.home = home;
    this.dir = dir;
  }

  /** The queue of the user whose home {@code HOME} in {@code env} names (else the JVM's {@code user.home}), on this host. */
  static QueueFolder of(Map<String, String> env) {
    String h = env.get("HOME");
    Path home = Path.of(h != null && !h.isBlank() ? h : System.getProperty("user.home")).toAbsolutePath().normalize();
    return new QueueFolder(home, home.resolve(".berth").resolve("queue").resolve(hostName()));
  }

  /** The queue kept in {@code dir} (another user's, as the host ledger names its run). */
  static QueueFolder at(Path dir) {
    return new QueueFolder(dir.getParent().getParent().getParent(), dir);
  }

  /** Whether {@code text} is written as a queue id: a whole number from 1. */
  static boolean isId(String text) {
    return ID.matcher(text).matches();
  }

  /**
   * The queue ids a run command's arguments name ({@code berth cancel 3 4}, {@code berth retry 3}):
   * all of them when the first, where the run's folder goes, is an id that names no folder; empty
   * when they name a run.
   */
  static Optional<List<String>> ids(String first, List<String> rest) {
    if (!isId(first) || Files.isDirectory(Path.of(first))) {
      return Optional.empty();
    }
    List<String> ids = new ArrayList<>(List.of(first));
    ids.addAll(rest);
    return Optional.of(ids);
  }

  /** The queue's settings file, {@code ~/.berth/queue.yaml}: a spec's {@code gpus} and {@code config}. */
  Path settingsFile() {
    return home.resolve(".berth").resolve("queue.yaml");
  }

  /** The queue's run folder. */
  Path runDir() {
    return dir.resolve("run");
  }

  /** Where the submissions wait, and stay. */
  Path inbox() {
    return dir.resolve("inbox");
  }

  /** The queue process's own output. */
  Path log() {
    return dir.resolve("queue.log");
  }

  /** The folder of task {@code id}: its {@code stdout.log} and {@code stderr.log}. */
  Path taskDir(int id) {
    return runDir().resolve(GROUP).resolve(Integer.toString(id));
  }

  /** Whether a queue process holds the run now. */
  boolean live() {
    return LiveRuns.isLive(runDir());
  }

  /**
   * Starts the queue's process (see {@link QueueDaemon#start}) unless one holds the run or is
   * starting: call while {@link #locked holding the lock}, so that two submits start one queue.
   */
  void ensureRunning(Map<String, String> env) throws IOException {
    if (live()) {
      return;
    }
    Path pidFile = dir.resolve("queue.pid");
    if (Files.exists(pidFile)) {
      String text = Files.readString(pidFile).strip();
      if (text.matches("[0-9]+") && ProcessHandle.of(Long.parseLong(text))
          .filter(p -> p.info().commandLine().orElse("").contains(" queue --daemon")).isPresent()) {
        return; // started by another submit, not yet holding the run: it reads the inbox once it does
      }
    }
    writeWhole(pidFile, QueueDaemon.start(this, env) + "\n");
  }

  /** Work done while holding {@code submit.lock}. */
  interface Locked<T> {
    T run() throws IOException;
  }

  /**
   * Runs {@code work} holding {@code submit.lock}, which every submit and the queue's decision to end
   * take: a submission is either seen by the queue before it ends, or finds it ended.
   */
  <T> T locked(Locked<T> work) throws IOException {
    create();
    try (FileChannel channel = FileChannel.open(dir.resolve("submit.lock"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE); FileLock held = channel.lock()) {
      return work.run();
    }
  }

  /**
   * Makes the queue's folder, open to its user only: its inbox and its journal hold each task's
   * environment, which may hold secrets.
   */
  void create() throws IOException {
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir.getParent());
      try {
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (FileAlreadyExistsException madeMeanwhile) {
        // another submit made it
      } catch (UnsupportedOperationException notPosix) {
        Files.createDirectories(dir);
      }
    }
    Files.createDirectories(inbox());
  }

  /** The next id, counted in {@code last-id}; call while {@link #locked holding the lock}. */
  int nextId() throws IOException {
    Path counter = dir.resolve("last-id");
    int last = 0;
    if (Files.exists(counter)) {
      String text = Files.readString(counter).strip();
      last = text.isEmpty() ? 0 : Integer.parseInt(text);
    }
    // a counter lost or cut short never gives an id twice: the inbox keeps every one given
    last = Math.max(last, ids().stream().mapToInt(Integer::intValue).max().orElse(0));
    int next = last + 1;
    writeWhole(counter, Integer.toString(next) + "\n");
    return next;
  }

  /** Writes a submission into the inbox whole: into a file beside it, synced, then renamed into place. */
  void add(Submission s) throws IOException {
    writeWhole(inbox().resolve(s.id() + ".json"), s.toJson());
  }

  /** The ids in the inbox, in order. */
  List<Integer> ids() throws IOException {
    List<Integer> ids = new ArrayList<>();
    if (!Files.isDirectory(inbox())) {
      return ids;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(inbox(), "*.json")) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        String id = name.substring(0, name.length() - ".json".length());
        if (isId(id)) {
          ids.add(Integer.parseInt(id));
        }
      }
    }
    ids.sort(Comparator.naturalOrder());
    return ids;
  }

  /**
   * Waits until a file is created or changed in one of {@code dirs} (those that exist; watching one
   * again is harmless) or {@code millis} have passed, whichever comes first, then drops the events
   * seen: the caller reads the state again either way, so a change is never missed, only coalesced.
   */
  static void awaitChange(WatchService watch, List<Path> dirs, long millis) throws IOException, InterruptedException {
    for (Path dir : dirs) {
      if (Files.isDirectory(dir)) {
        dir.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
      }
    }
    WatchKey key = watch.poll(millis, TimeUnit.MILLISECONDS);
    while (key != null) {
      key.pollEvents();
      key.reset();
      key = watch.poll();
    }
  }

  /** The submission of the task whose id a user wrote, {@code text}; empty when it is no id of this queue. */
  Optional<Submission> submission(String text) throws IOException {
    return isId(text) ? submission(Integer.parseInt(text)) : Optional.empty();
  }

  /** The submission of task {@code id}, when there is one. */
  Optional<Submission> submission(int id) throws IOException {
    Path file = inbox().resolve(id + ".json");
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    return Optional.of(Submission.fromJson(Files.readString(file)));
  }

  /** Every submission, in id order. */
  List<Submission> submissions() throws IOException {
    List<Submission> all = new ArrayList<>();
    for (int id : ids()) {
      submission(id).ifPresent(all::add);
    }
    return all;
  }

  /** Why the queue refused task {@code id} (a dependency it cannot have), when it did. */
  Optional<String> refusal(int id) throws IOException {
    Path file = inbox().resolve(id + ".refused");
    return Files.exists(file) ? Optional.of(Files.readString(file).strip()) : Optional.empty();
  }

  /** Records why task {@code id} was refused. */
  void refuse(int id, String why) throws IOException {
    writeWhole(inbox().resolve(id + ".refused"), why + "\n");
  }

  private static void writeWhole(Path file, String text) throws IOException {
    Path part = file.resolveSibling("." + file.getFileName() + "." + ProcessHandle.current().pid() + ".part");
    try (FileChannel c = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE)) {
      c.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
      c.force(true);
    }
    try {
      Files.move(part, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(part, file, StandardCopyOption.REPLACE_EXISTING);
    }
    try (FileChannel folder = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
      folder.force(true); // the rename itself survives a power cut
    } catch (IOException notOnThisFileSystem) {
      // some file systems cannot sync a folder; the rename is as durable as they make it
    }
  }

  private static String hostName() {
    try {
      String name = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
      return name.isEmpty() || !name.matches("[A-Za-z0-9._-]+") ? "localhost" : name;
    } catch (IOException e) {
      return "localhost";
    }
  }
}

package dev.berth.host;

import dev.berth.host.FileOwners.Owner;
import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import dev.berth.host.RowSet.Part;
import dev.berth.host.RowSet.Reclaim;
import dev.berth.spi.SharedReservationsException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ledger's rows in the host folder, one file per user ({@code user-UID.ledger}), which only that
 * user writes (mode 0644, in the sticky folder) and every user reads. A transaction holds the
 * folder's {@link FolderLock}, reads every user's file, lets the rules work on all the rows, and
 * writes back the caller's own, whole, by renaming a new file over the old: so two runs never both
 * read the same free memory and take it, whoever they belong to, and a reader never sees half a file.
 *
 * <p>A file counts as the rows of the user who owns it: one named for another uid is ignored with a
 * warning, and whatever the lines of a file say of whose they are, its rows are its owner's. What a
 * run whose process is gone held is reclaimed in what the caller sees (and in the file, when the run
 * is the caller's own): another user's file stays as its owner wrote it, and every reader reaches the
 * same view from the same processes.
 *
 * <p>When the caller's own file was removed or replaced since it last wrote it, its runs are written
 * there again as it had them: its own runs as they are, and the user's other live runs when the file
 * has no row of them. Until then others cannot tell what that user's runs hold, so while a user's
 * file is missing where its marker ({@code .user-UID.made}, made with the first) says there was one,
 * or was made anew there by a run that had nothing to write again, starts wait ({@link
 * Tables#untold}): for {@link #GRACE} from when it was first seen so, in which that user's live runs
 * publish there, then while task processes of this ledger live whose runs no file has a row of
 * (their Berth died while the file was gone: nobody could write their holds again).
 */
final class FileStore implements LedgerStore {

  /**
   * How long a user's file missing, or made anew, under its runs holds starts back: many times the
   * runs' look interval (1 s by default), in which each of that user's live runs writes there again
   * what it holds.
   */
  static final Duration GRACE = Duration.ofSeconds(10);

  private static final String PREFIX = "user-";
  private static final String SUFFIX = ".ledger";
  private static final String MARK = ".made";
  private static final Pattern NAME = Pattern.compile(Pattern.quote(PREFIX) + "([0-9]+)" + Pattern.quote(SUFFIX));
  private static final Pattern MARKER = Pattern.compile("\\." + Pattern.quote(PREFIX) + "([0-9]+)" + Pattern.quote(MARK));

  private final Path dir;
  private final FileOwners owners;
  private final Consumer<String> warn;
  private Long writer; // the uid whose file this store writes: the process's, or the first one a change names
  private UserFile written; // the writer's rows as the last transaction left them
  private final Set<String> published = new TreeSet<>(); // the runs this store put: their rows are its own to restore
  // What this store reclaimed of other users' runs, by uid and the run's id in that user's file.
  private final Map<String, List<Reclaim>> gone = new TreeMap<>();
  private final Set<String> warned = new TreeSet<>();
  private final TaskProcesses tasks;
  private final Map<Long, Instant> missingSince = new TreeMap<>(); // users whose file this store found missing, since
  private final Set<String> settled = new TreeSet<>(); // files ("UID/token", or "UID/missing") it waited for enough

  /**
   * @param writer the uid whose file this store writes; null to take the uid the first change names
   *     (for tests of several users in one process)
   */
  FileStore(Path dir, Long writer, FileOwners owners, TaskProcesses tasks, Consumer<String> warn) {
    this.dir = dir;
    this.tasks = tasks;
    this.writer = writer;
    this.owners = owners;
    this.warn = warn;
  }

  /** The file of one user's rows in the host folder {@code dir}. */
  static Path fileOf(Path dir, long uid) {
    return dir.resolve(PREFIX + uid + SUFFIX);
  }

  /** Whether {@code dir} holds a user's ledger file. */
  static boolean anyIn(Path dir) {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PREFIX + "*" + SUFFIX)) {
      return files.iterator().hasNext();
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public synchronized <T> T transaction(Function<Tables, T> work) {
    try {
      HostLedgers.makeFolder(dir);
      try (FolderLock lock = FolderLock.take(dir)) {
        Read read = read();
        RowSet rows = read.rows();
        T result = work.apply(rows.tables());
        save(rows, read);
        return result;
      }
    } catch (IOException e) {
      throw new SharedReservationsException(dir + ": the host ledger cannot be used: " + e, e);
    }
  }

  /** The rows of every user's file, with what this store reclaimed of them made again. */
  private Read read() throws IOException {
    RowSet rows = new RowSet();
    List<Path> files = new ArrayList<>();
    Set<Long> marked = new TreeSet<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        Matcher marker = MARKER.matcher(name);
        if (NAME.matcher(name).matches()) {
          files.add(p);
        } else if (marker.matches()) {
          long uid = Long.parseLong(marker.group(1));
          try {
            if (owners.of(p).uid() == uid) {
              marked.add(uid); // another user's marker for this uid says nothing of it
            }
          } catch (NoSuchFileException gone) {
            // removed since the folder was listed
          }
        } else if (writer != null && name.startsWith("." + PREFIX + writer + ".") && name.endsWith(".tmp")) {
          Files.deleteIfExists(p); // left by a writer killed before its rename; no other writes while we hold the lock
        }
      }
    }
    // The writer's own file first: its runs keep their ids however another file names them.
    files.sort((a, b) -> Long.compare(order(a), order(b)));
    UserFile own = null;
    Map<String, String> keys = new TreeMap<>(); // each run's id in these rows -> uid and id in its file
    Map<Long, UserFile> byUser = new TreeMap<>();
    for (Path file : files) {
      long uid = uidOf(file);
      UserFile f = load(file, uid);
      if (f == null) {
        continue;
      }
      if (writer != null && uid == writer) {
        own = f;
      }
      byUser.put(uid, f);
      add(rows, f.rows(), uid, keys);
    }
    String made = own != null ? own.made() : UUID.randomUUID().toString();
    boolean restored = writer != null && written != null && !written.made().equals(made) && restore(rows);
    Map<String, String> ids = new TreeMap<>();
    keys.forEach((id, key) -> ids.put(key, id));
    gone.entrySet().removeIf(e -> {
      String id = ids.get(e.getKey());
      boolean live = id != null && rows.tables().runs().stream().anyMatch(r -> r.id().equals(id) && r.live());
      if (live) {
        e.getValue().forEach(r -> rows.replay(new Reclaim(id, r.task(), r.state(), r.at())));
      }
      return !live;
    });
    rows.reclaimed();
    rows.callers();
    Read read = new Read(rows, made, own == null ? "" : own.user(), own == null ? Part.EMPTY : own.rows(), restored,
        keys, own == null, own == null ? null : own.remade(), writer != null && marked.contains(writer), new Waits());
    missingSince.keySet().removeIf(byUser::containsKey);
    rows.untold(now -> untold(read, marked, byUser, now));
    return read;
  }

  /** When the writer's file waits since, as the transaction saw it: when it first asked, and whether its wait ended. */
  private static final class Waits {
    Instant firstAsked;
    boolean writerSettled;
  }

  /**
   * Why starts wait: a user's file missing where its marker says there was one, or made anew there,
   * for {@link #GRACE} from when it was first seen so, then while task processes of this ledger live
   * whose runs no file has a row of. A wait that ended is not waited for again by this store.
   */
  private Optional<String> untold(Read read, Set<Long> marked, Map<Long, UserFile> byUser, Instant now) {
    if (read.waits().firstAsked == null) {
      read.waits().firstAsked = now;
    }
    Set<Long> users = new TreeSet<>(marked);
    byUser.forEach((uid, f) -> {
      if (f.remade() != null) {
        users.add(uid);
      }
    });
    Set<String> unknown = null;
    for (long uid : users) {
      UserFile f = byUser.get(uid);
      boolean mine = writer != null && uid == writer;
      Instant since;
      String key;
      if (f != null) {
        since = mine && read.restored() ? null : f.remade();
        key = uid + "/" + f.made();
      } else if (mine && read.restored()) {
        continue; // this store writes its own again in this transaction
      } else {
        since = missingSince.computeIfAbsent(uid, u -> now);
        key = uid + "/missing";
      }
      if (since == null || settled.contains(key)) {
        continue;
      }
      String whose = f != null ? "user " + f.user() + "'s host ledger file was made anew" : "the host ledger file of uid "
          + uid + " was removed";
      Instant until = since.plus(GRACE);
      if (now.isBefore(until)) {
        long seconds = (Duration.between(now, until).toMillis() + 999) / 1000;
        return Optional.of(whose + " under its runs: starts wait " + seconds
            + " s more for them to publish there what they hold [host ledger made anew]");
      }
      if (unknown == null) {
        unknown = new TreeSet<>(tasks.runFolders(where()));
        for (RunRow r : read.rows().tables().runs()) {
          unknown.remove(r.workdir());
        }
      }
      if (!unknown.isEmpty()) {
        List<String> some = unknown.stream().limit(3).toList();
        return Optional.of(whose + " under its runs, and tasks of runs no file has run on, holding what the ledger"
            + " cannot tell (" + String.join(", ", some) + (unknown.size() > 3 ? ", ..." : "")
            + "): starts wait until they end or their runs are resumed [host ledger made anew]");
      }
      settled.add(key);
      if (mine) {
        read.waits().writerSettled = true;
      }
    }
    return Optional.empty();
  }

  /**
   * The rows one transaction read, as what the writer's own file had them, and each run's uid and id
   * in its file by its id in the rows.
   */
  private record Read(RowSet rows, String made, String user, Part own, boolean restored, Map<String, String> keys,
      boolean fresh, Instant remade, boolean marked, Waits waits) {}

  private long order(Path file) {
    long uid = uidOf(file);
    return writer != null && uid == writer ? -1 : uid;
  }

  private static long uidOf(Path file) {
    Matcher m = NAME.matcher(file.getFileName().toString());
    if (!m.matches()) {
      throw new IllegalArgumentException(file + ": not a user's ledger file");
    }
    return Long.parseLong(m.group(1));
  }

  /** A user's file, or null when it does not count: not a regular file, or not owned by the uid it is named for. */
  private UserFile load(Path file, long uid) throws IOException {
    boolean own = writer != null && uid == writer;
    BasicFileAttributes attributes;
    Owner owner;
    String text;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      owner = owners.of(file);
      if (!attributes.isRegularFile()) {
        return ignored(file, own, "it is not a regular file");
      }
      if (owner.uid() != uid) {
        return ignored(file, own, "it is named for uid " + uid + " but owned by uid " + owner.uid());
      }
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      return null; // removed by its owner since the folder was listed
    }
    try {
      return UserFile.parse(text, uid, owner.name());
    } catch (IllegalArgumentException e) {
      return ignored(file, own, e.getMessage());
    }
  }

  /**
   * Ignores another user's file that does not count, saying so once: it cannot change what this
   * user's runs hold, only hide its owner's. The writer's own is an error: its runs cannot take part.
   */
  private UserFile ignored(Path file, boolean own, String why) {
    if (own) {
      throw new SharedReservationsException(file + ": this user's host ledger file cannot be used: " + why
          + "; remove it (as its owner, or root) to start it afresh");
    }
    if (warned.add(file + why)) {
      warn.accept("berth: " + file + " is ignored: " + why);
    }
    return null;
  }

  /**
   * Adds a user's rows: a run whose id another file has already keeps its rows apart under the id
   * followed by {@code @UID}, so that no file can hide another's runs by naming its own after them.
   */
  private static void add(RowSet rows, Part part, long uid, Map<String, String> keys) {
    Set<String> renamed = new TreeSet<>();
    Set<String> ids = new TreeSet<>();
    for (RunRow r : part.runs()) {
      if (!ids.add(r.id())) {
        continue; // a second line of the same run
      }
      if (rows.has(r.id())) {
        renamed.add(r.id());
      }
    }
    for (RunRow r : part.runs()) {
      if (!ids.remove(r.id())) {
        continue;
      }
      String id = renamed.contains(r.id()) ? r.id() + "@" + uid : r.id();
      keys.put(id, uid + "/" + r.id());
      List<HoldRow> holds = part.holdsOf(r.id()).stream().map(h -> new HoldRow(id, h.task(), h.key(), h.label(),
          h.bytes(), h.measured(), h.milliCpus(), h.since())).toList();
      List<WaitRow> waits = part.waitsOf(r.id()).stream().map(w -> new WaitRow(id, w.task(), w.priority(), w.since(),
          w.milliCpus(), w.hostMemory(), w.gpuMemory(), w.gpus(), w.devices())).toList();
      rows.carry(new RunRow(id, r.host(), r.name(), r.workdir(), r.uid(), r.user(), r.pid(), r.pidStart(), r.state(),
          r.running(), r.waiting(), r.done(), r.total(), r.startedAt(), r.updatedAt(), r.endedAt(), r.tasksSince()),
          holds, waits);
    }
    part.usage().forEach(rows::addUsage);
  }

  /**
   * Writes again into rows read from a file made anew (or none) what this store's user had in the
   * file it last wrote: the runs this store put, as it had them, over whatever the new file says of
   * them; the user's other live runs when the file has no row of them (a killed run's, whose tasks
   * still use what it holds, included).
   *
   * @return whether there was anything to write again
   */
  private boolean restore(RowSet rows) {
    Part last = written.rows();
    Tables t = rows.tables();
    boolean any = false;
    for (RunRow r : last.runs()) {
      if (!r.live()) {
        continue;
      }
      if (published.contains(r.id())) {
        t.putRun(r, writer);
        last.holdsOf(r.id()).forEach(h -> t.addHold(h, writer));
        t.replaceWaits(r.id(), last.waitsOf(r.id()), writer);
        any = true;
      } else {
        any |= rows.carry(r, last.holdsOf(r.id()), last.waitsOf(r.id()));
      }
    }
    return any;
  }

  /**
   * Writes the writer's rows back when the transaction changed them, and keeps what it reclaimed of
   * other users' runs for the transactions to come.
   */
  private void save(RowSet rows, Read read) throws IOException {
    Set<Long> callers = rows.callers();
    if (writer == null && !callers.isEmpty()) {
      writer = callers.iterator().next(); // a store of a test's user, who names itself at its first change
    }
    for (Reclaim r : rows.reclaimed()) {
      String key = read.keys().get(r.run());
      if (key != null && (writer == null || !key.startsWith(writer + "/"))) {
        gone.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
      }
    }
    if (writer == null) {
      return;
    }
    String user = userOf(rows, read);
    Part now = rows.part(writer, user);
    // A run neither file had is one this store put: a run joins under a new id.
    Set<String> known = new TreeSet<>();
    read.own().runs().forEach(r -> known.add(r.id()));
    if (written != null) {
      written.rows().runs().forEach(r -> known.add(r.id()));
    }
    now.runs().stream().map(RunRow::id).filter(id -> !known.contains(id)).forEach(published::add);
    Instant remade = remadeOf(read);
    UserFile file = new UserFile(read.made(), user, remade, now);
    if (read.restored() || !now.equals(read.own()) || !java.util.Objects.equals(remade, read.remade())) {
      write(file);
    }
    written = file;
  }

  /**
   * Since when the writer's file waits for its runs: a file this store makes where the user's marker
   * says there was one, with nothing of its own to write again there, waits from when it was first
   * asked; one it wrote its runs again into, or whose wait ended, waits no more.
   */
  private static Instant remadeOf(Read read) {
    if (read.restored() || read.waits().writerSettled) {
      return null;
    }
    if (read.fresh()) {
      return read.marked() ? read.waits().firstAsked : null;
    }
    return read.remade();
  }

  /** The writer's name: as its runs carry it (the file system's, for a file read back). */
  private String userOf(RowSet rows, Read read) {
    return rows.tables().runs().stream().filter(r -> r.uid() == writer).map(RunRow::user).findFirst()
        .orElse(read.user());
  }

  private void write(UserFile file) throws IOException {
    Path target = fileOf(dir, writer);
    Path fresh = Files.createTempFile(dir, "." + PREFIX + writer + ".", ".tmp");
    try {
      // Set, not asked for at creation, where the umask could take readers' rights away.
      Files.setPosixFilePermissions(fresh, PosixFilePermissions.fromString("rw-r--r--"));
      Files.writeString(fresh, file.text());
      Files.move(fresh, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(fresh);
    }
    Path marker = dir.resolve("." + PREFIX + writer + MARK);
    if (!Files.exists(marker, LinkOption.NOFOLLOW_LINKS)) {
      Files.writeString(marker, "A Berth host ledger file of this user was made in this folder: while it is"
          + " missing, or made anew, other runs wait for this user's runs to write there again what they hold.\n");
      Files.setPosixFilePermissions(marker, PosixFilePermissions.fromString("rw-r--r--"));
    }
  }

  @Override
  public String where() {
    return dir.toString();
  }

  @Override
  public void close() {}
}

package dev.berth.host;

import dev.berth.host.FileOwners.Owner;
import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import dev.berth.host.RowSet.Part;
import dev.berth.host.RowSet.Reclaim;
import dev.berth.spi.SharedReservationsException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * writes back the caller's own when it changed: so two runs never both read the same free memory and
 * take it, whoever they belong to, and no reader sees a file being written.
 *
 * <p>A file counts as the rows of the user who owns it: one named for another uid is ignored with a
 * warning, and whatever the lines of a file say of whose they are, its rows are its owner's. What a
 * run whose process is gone held is reclaimed in what the caller sees (and in the file, when the run
 * is the caller's own): another user's file stays as its owner wrote it, and every reader reaches the
 * same view from the same processes.
 *
 * <p>Each file has a second copy, {@code .user-UID.ledger}, written before it at every write: a file its
 * owner removes, or one a writer killed in the middle of it left unfinished, is read on, by every run,
 * from the other. When the caller's own file
 * was removed under both, or replaced, since it last wrote it, its runs are written there again as it
 * had them: its own runs as they are, and the user's other live runs when the file has no row of them.
 */
final class FileStore implements LedgerStore {

  private static final String PREFIX = "user-";
  private static final String SUFFIX = ".ledger";
  /** A user's file, or (with the dot) its second copy. */
  private static final Pattern NAME = Pattern.compile("(\\.?)" + Pattern.quote(PREFIX) + "([0-9]+)" + Pattern.quote(SUFFIX));

  private final Path dir;
  private final FileOwners owners;
  private final Consumer<String> warn;
  private Long writer; // the uid whose file this store writes: the process's, or the first one a change names
  private UserFile written; // the writer's rows as the last transaction left them
  private final Set<String> published = new TreeSet<>(); // the runs this store put: their rows are its own to restore
  // What this store reclaimed of other users' runs, by uid and the run's id in that user's file.
  private final Map<String, List<Reclaim>> gone = new TreeMap<>();
  private final Set<String> warned = new TreeSet<>();

  /**
   * @param writer the uid whose file this store writes; null to take the uid the first change names
   *     (for tests of several users in one process)
   */
  FileStore(Path dir, Long writer, FileOwners owners, Consumer<String> warn) {
    this.dir = dir;
    this.writer = writer;
    this.owners = owners;
    this.warn = warn;
  }

  /** The file of one user's rows in the host folder {@code dir}. */
  static Path fileOf(Path dir, long uid) {
    return dir.resolve(PREFIX + uid + SUFFIX);
  }

  /** The second copy of a user's file, which {@code rm user-*} leaves. */
  static Path secondOf(Path dir, long uid) {
    return dir.resolve("." + PREFIX + uid + SUFFIX);
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
    Map<Long, Path> files = new TreeMap<>();
    Map<Long, Path> seconds = new TreeMap<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        Matcher m = NAME.matcher(name);
        if (m.matches()) {
          (m.group(1).isEmpty() ? files : seconds).put(Long.parseLong(m.group(2)), p);
        }
      }
    }
    // The writer's own file first: its runs keep their ids however another file names them.
    List<Long> users = new ArrayList<>(new TreeSet<>(files.keySet()));
    seconds.keySet().stream().filter(uid -> !files.containsKey(uid)).forEach(users::add);
    users.sort((a, b) -> Long.compare(order(a), order(b)));
    UserFile own = null;
    boolean ownFromSecond = false;
    Map<String, String> keys = new TreeMap<>(); // each run's id in these rows -> uid and id in its file
    for (long uid : users) {
      // A file removed by its owner, or left unfinished by a writer killed in the middle of it, is
      // read on under its second copy, which has what it had.
      Path second = seconds.get(uid);
      UserFile f = files.containsKey(uid) ? load(files.get(uid), uid, second != null) : null;
      boolean fromSecond = f == null && second != null;
      if (fromSecond) {
        f = load(second, uid, false);
      }
      if (f == null) {
        continue;
      }
      if (writer != null && uid == writer) {
        own = f;
        ownFromSecond = fromSecond;
      }
      add(rows, f.rows(), uid, keys);
    }
    String made = own != null ? own.made() : UUID.randomUUID().toString();
    // Written again: under its first name too when only the second was left.
    boolean restored = writer != null && written != null && !written.made().equals(made) && restore(rows)
        || ownFromSecond;
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
    return new Read(rows, made, own == null ? "" : own.user(), own == null ? Part.EMPTY : own.rows(), restored, keys);
  }

  /**
   * The rows one transaction read, as what the writer's own file had them, and each run's uid and id
   * in its file by its id in the rows.
   */
  private record Read(RowSet rows, String made, String user, Part own, boolean restored, Map<String, String> keys) {}

  private long order(long uid) {
    return writer != null && uid == writer ? -1 : uid;
  }

  /**
   * A user's file, or null when it does not count: not a regular file, or not owned by the uid it is
   * named for.
   *
   * @param spare whether another name of it may stand in for it: its being unreadable is no error
   */
  private UserFile load(Path file, long uid, boolean spare) throws IOException {
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
      return spare ? null : ignored(file, own, e.getMessage());
    }
  }

  /**
   * Ignores another user's file that does not count, saying so once: it cannot change what this
   * user's runs hold, only hide its owner's. The writer's own is an error: its runs cannot take part.
   */
  private UserFile ignored(Path file, boolean own, String why) {
    if (own) {
      throw new SharedReservationsException(file + ": this user's host ledger file cannot be used: " + why
          + "; remove " + fileOf(dir, writer) + " and its copy " + secondOf(dir, writer)
          + " (as their owner, or root) to start it afresh");
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
    UserFile file = new UserFile(read.made(), user, now);
    if (read.restored() || !now.equals(read.own())) {
      write(file);
    }
    written = file;
  }

  /** The writer's name: as its runs carry it (the file system's, for a file read back). */
  private String userOf(RowSet rows, Read read) {
    return rows.tables().runs().stream().filter(r -> r.uid() == writer).map(RunRow::user).findFirst()
        .orElse(read.user());
  }

  /**
   * Writes the writer's rows in place, under the lock that keeps every reader out meanwhile: first
   * as the second copy, then the file itself, so that a writer killed in the middle of one leaves the
   * other whole (a file read back must end with its last line, {@link UserFile#END}). In place,
   * because a rename over the old file makes the file system write it out at once, ten times the cost
   * of the rest of a transaction. Without a second copy (one another user made first, which counts
   * for nothing) the file is written all the same.
   */
  private void write(UserFile file) throws IOException {
    byte[] text = file.text().getBytes(StandardCharsets.UTF_8);
    Path second = secondOf(dir, writer);
    try {
      writeInPlace(second, text);
    } catch (java.nio.file.FileSystemException e) {
      if (warned.add(second.toString())) {
        warn.accept("berth: " + second + " cannot be written (" + e.getMessage() + "): this user's host ledger file"
            + " has no second copy, and is lost if it is removed");
      }
    }
    writeInPlace(fileOf(dir, writer), text);
  }

  private static void writeInPlace(Path file, byte[] text) throws IOException {
    FileChannel channel;
    try {
      channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
      // Set, not asked for at creation, where the umask could take readers' rights away.
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    } catch (FileAlreadyExistsException there) {
      channel = FileChannel.open(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    }
    try (FileChannel c = channel) {
      ByteBuffer bytes = ByteBuffer.wrap(text);
      while (bytes.hasRemaining()) {
        c.write(bytes, bytes.position());
      }
      c.truncate(text.length);
    }
  }

  @Override
  public String where() {
    return dir.toString();
  }

  @Override
  public void close() {}
}

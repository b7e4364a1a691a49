package dev.berth.host;

import dev.berth.core.resources.Resource;
import dev.berth.core.units.ByteSize;
import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Share;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Per-user limits of the host, from the file {@code limits} in the host folder: one line per user
 * ({@code *} for every user without a line of their own), then settings, e.g.
 * {@code alice max-gpus=2 max-gpu-memory=48GiB max-cores=16}. {@code #} starts a comment.
 *
 * <p>Only an administrator of the host sets them: the file counts only when it is a regular file
 * owned by root or by the host folder's owner that nobody else may write, in a folder nobody else
 * may rename it in. Any other is ignored with a warning, as sudo and ssh ignore such files: in the
 * sticky host folder every user may make a file named {@code limits}, and one that counted would
 * let any user cap, or stop, everyone's runs.
 */
public final class HostLimits {

  /** The file's name in the host folder. */
  public static final String FILE = "limits";
  /** No limits. */
  static final HostLimits NONE = new HostLimits(Map.of());

  private static final int GROUP_OR_OTHERS_WRITE = 0022;
  private static final int STICKY = 01000;
  private static final List<String> KEYS = List.of("max-gpus", "max-gpu-memory", "max-cores");

  private final Map<String, Limit> byUser;

  private HostLimits(Map<String, Limit> byUser) {
    this.byUser = byUser;
  }

  /**
   * The limits in {@code file}; none when it does not exist, and none, saying why to {@code warn},
   * when it is not an administrator's (see the class comment).
   *
   * @throws IllegalArgumentException naming the file, line, field and rule when a line is not valid
   */
  public static HostLimits read(Path file, Consumer<String> warn) throws IOException {
    Optional<String> untrusted;
    try {
      untrusted = untrusted(file);
    } catch (NoSuchFileException e) {
      return NONE;
    }
    if (untrusted.isPresent()) {
      warn.accept("berth: " + file + " is ignored: " + untrusted.get()
          + "; only root or the host folder's owner sets the host's limits");
      return NONE;
    }
    List<String> lines = Files.readAllLines(file);
    Map<String, Limit> byUser = new TreeMap<>();
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n).replaceFirst("#.*", "").strip();
      if (line.isEmpty()) {
        continue;
      }
      String[] words = line.split("\\s+");
      String where = file + " line " + (n + 1) + ": ";
      if (byUser.containsKey(words[0])) {
        throw new IllegalArgumentException(where + "user " + words[0] + " has a line already");
      }
      Limit limit = new Limit(-1, -1, -1);
      for (int i = 1; i < words.length; i++) {
        limit = limit.with(where, words[i]);
      }
      byUser.put(words[0], limit);
    }
    return new HostLimits(byUser);
  }

  /**
   * Why the limits file is not an administrator's, if it is not: what is not a regular file, is owned
   * by another user, or may be changed by anyone else than its owner does not count.
   */
  private static Optional<String> untrusted(Path file) throws IOException {
    Path folder = file.toAbsolutePath().getParent();
    if (!Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile()) {
      return Optional.of("it is not a regular file");
    }
    int owner = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    int folderOwner = (Integer) Files.getAttribute(folder, "unix:uid");
    if (owner != 0 && owner != folderOwner) {
      return Optional.of("it is owned by uid " + owner + ", neither root nor the owner of " + folder);
    }
    int mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    if ((mode & GROUP_OR_OTHERS_WRITE) != 0) {
      return Optional.of("users other than its owner may write it (mode " + Integer.toOctalString(mode & 07777) + ")");
    }
    int folderMode = (Integer) Files.getAttribute(folder, "unix:mode");
    if ((folderMode & GROUP_OR_OTHERS_WRITE) != 0 && (folderMode & STICKY) == 0) {
      return Optional.of("other users may replace it in " + folder + ", which is writable by them and not sticky");
    }
    return Optional.empty();
  }

  /** Why this user may not take the claim beside what their runs hold, if they may not. */
  Optional<String> refusal(String user, Claim claim, List<HoldRow> holds, Map<String, RunRow> runs) {
    Limit limit = byUser.getOrDefault(user, byUser.get("*"));
    if (limit == null) {
      return Optional.empty();
    }
    long gpus = 0;
    long gpuMemory = 0;
    long milliCpus = 0;
    for (HoldRow h : holds) {
      RunRow owner = runs.get(h.run());
      if (owner == null || !owner.user().equals(user)) {
        continue;
      }
      milliCpus += h.milliCpus();
      if (!h.key().equals(SharedReservations.HOST)) {
        gpus++;
        gpuMemory += h.bytes();
      }
    }
    long askedMemory = claim.shares().stream().filter(s -> !s.key().equals(SharedReservations.HOST))
        .mapToLong(Share::bytes).sum();
    if (limit.gpus >= 0 && claim.gpus() > 0 && gpus + claim.gpus() > limit.gpus) {
      return Optional.of(over(user, "max-gpus", Resource.GPUS, gpus, claim.gpus(), limit.gpus));
    }
    if (limit.gpuMemory >= 0 && askedMemory > 0 && gpuMemory + askedMemory > limit.gpuMemory) {
      return Optional.of(over(user, "max-gpu-memory", Resource.GPU_MEMORY, gpuMemory, askedMemory, limit.gpuMemory));
    }
    if (limit.milliCpus >= 0 && claim.milliCpus() > 0 && milliCpus + claim.milliCpus() > limit.milliCpus) {
      return Optional.of(over(user, "max-cores", Resource.CPUS, milliCpus, claim.milliCpus(), limit.milliCpus));
    }
    return Optional.empty();
  }

  private static String over(String user, String key, Resource r, long held, long asked, long limit) {
    return "user " + user + " holds " + r.format(held) + " and asks " + r.format(asked) + ", limit "
        + r.format(limit) + " [host limits " + key + "]";
  }

  private record Limit(long gpus, long gpuMemory, long milliCpus) {
    Limit with(String where, String setting) {
      int eq = setting.indexOf('=');
      String key = eq < 0 ? setting : setting.substring(0, eq);
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException(where + key + ": not a limit; the limits are " + String.join(", ", KEYS));
      }
      if (eq < 0 || eq == setting.length() - 1) {
        throw new IllegalArgumentException(where + key + ": needs a value, e.g. " + key + "=2");
      }
      String value = setting.substring(eq + 1);
      try {
        return switch (key) {
          case "max-gpus" -> new Limit(nonNegative(Long.parseLong(value)), gpuMemory, milliCpus);
          case "max-gpu-memory" -> new Limit(gpus, nonNegative(ByteSize.parse(value)), milliCpus);
          default -> new Limit(gpus, gpuMemory,
              nonNegative(new BigDecimal(value).movePointRight(3).longValueExact()));
        };
      } catch (NumberFormatException | ArithmeticException e) {
        throw new IllegalArgumentException(where + key + ": '" + value + "' is not a "
            + (key.equals("max-gpu-memory") ? "size such as 48GiB" : "number"));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + key + ": " + e.getMessage());
      }
    }

    private static long nonNegative(long v) {
      if (v < 0) {
        throw new IllegalArgumentException("must be 0 or more");
      }
      return v;
    }
  }
}

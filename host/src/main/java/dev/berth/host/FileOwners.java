package dev.berth.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who owns a file of the host folder, as the file system says, without following a link: the only
 * thing that tells one user's ledger rows from another's.
 */
interface FileOwners {

  /** A file's owner: uid and name (null for the name the file gives). */
  record Owner(long uid, String name) {}

  /** The file system's owners. */
  FileOwners SYSTEM = new FileOwners() {
    // A name is looked up once per uid: the lookup (the user database, perhaps over the network) costs
    // more than the rest of a transaction, and a uid's name does not change under a run.
    private final Map<Long, String> names = new ConcurrentHashMap<>();

    @Override
    public Owner of(Path file) throws IOException {
      long uid = ((Number) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
      String name = names.get(uid);
      if (name == null) {
        name = Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).getName();
        names.put(uid, name);
      }
      return new Owner(uid, name);
    }
  };

  /**
   * Owners as a file's name says, for a simulation of several users in one process: each user's file
   * counts as written by the uid it is named for, under the name it gives. Nothing on a host may
   * trust this.
   */
  FileOwners NAMED = file -> new Owner(Long.parseLong(file.getFileName().toString().replaceAll("[^0-9]", "")), null);

  /** The owner of {@code file}, which is not followed when it is a link. */
  Owner of(Path file) throws IOException;
}

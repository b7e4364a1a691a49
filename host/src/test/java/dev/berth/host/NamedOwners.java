package dev.berth.host;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Owners of the host folder's files for tests of several users in one process: each user's ledger
 * file is owned by the uid it is named for, as if that user had written it, under the name given.
 */
final class NamedOwners implements FileOwners {

  private final Map<Long, String> names = new TreeMap<>();

  /** Names the user of this uid. */
  NamedOwners name(long uid, String user) {
    synchronized (names) {
      names.put(uid, user);
    }
    return this;
  }

  @Override
  public Owner of(Path file) {
    long uid = Long.parseLong(file.getFileName().toString().replaceAll("[^0-9]", ""));
    synchronized (names) {
      return new Owner(uid, names.getOrDefault(uid, "user" + uid));
    }
  }
}

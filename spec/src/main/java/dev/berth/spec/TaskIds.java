package dev.berth.spec;

import java.util.HashMap;
import java.util.Map;

/** The task ids used so far in a run, to reject one used twice with both places named. */
final class TaskIds {

  private record Owner(String group, Field field) {}

  private final Map<String, Owner> owners = new HashMap<>();

  /**
   * Records that the task entry at {@code entry} in {@code group} produces {@code id}.
   *
   * @throws SpecException when an earlier entry produced it already
   */
  void claim(String id, String group, Field entry) throws SpecException {
    Owner earlier = owners.putIfAbsent(id, new Owner(group, entry));
    if (earlier == null) {
      return;
    }
    if (earlier.group().equals(group)) {
      throw entry.key("id").problem("task id '" + id + "' is already used by " + earlier.field().path()
          + " in the same group; task ids must be unique within a run");
    }
    throw entry.key("id").problem("task id '" + id + "' is used in groups '" + earlier.group() + "' ("
        + earlier.field().path() + ") and '" + group + "'; task ids must be unique within a run");
  }
}

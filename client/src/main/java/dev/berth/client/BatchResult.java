package dev.berth.client;

import java.util.List;
import java.util.NoSuchElementException;

/**
 * How the groups of a batch ({@link Berth#add} then {@link Berth#start()}) ended, in the order they ran.
 *
 * @param groups each group's result, in order
 */
public record BatchResult(List<GroupResult> groups) {

  /** Copies the list. */
  public BatchResult {
    groups = List.copyOf(groups);
  }

  /** Whether every task of every group succeeded. */
  public boolean succeeded() {
    return groups.stream().allMatch(GroupResult::succeeded);
  }

  /**
   * The group with this name.
   *
   * @throws NoSuchElementException when the batch has no such group
   */
  public GroupResult group(String name) {
    return groups.stream().filter(g -> g.name().equals(name)).findFirst()
        .orElseThrow(() -> new NoSuchElementException("the batch has no group " + name));
  }

  /**
   * The task with this id, in whichever group.
   *
   * @throws NoSuchElementException when the batch has no such task
   */
  public TaskResult task(String id) {
    return groups.stream().flatMap(g -> g.tasks().stream()).filter(t -> t.id().equals(id)).findFirst()
        .orElseThrow(() -> new NoSuchElementException("the batch has no task " + id));
  }
}

package dev.berth.core.model;

import java.util.AbstractList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.RandomAccess;

/**
 * The tasks a {@link Dependency} names: an immutable list that the edges naming the same tasks share.
 * A glob such as {@code m-*} on each of 4,000 tasks is one list of the tasks it matches, held once,
 * not 4,000 copies of it; what walks edges (the checks of a run, the scheduler's bookkeeping) walks
 * each {@link #whole() whole list} once and keys what it learns by its identity.
 *
 * <p>A task inside the set its edge names ({@code t-*} on {@code t-3}) never depends on itself: its
 * list is the shared one {@link #without} it, a view that leaves one task out, not a copy.
 */
public final class EdgeTasks extends AbstractList<TaskId> implements RandomAccess {

  /** Lists up to this size are searched instead of indexed: most edges name a task or two. */
  private static final int SEARCHED = 16;

  private final EdgeTasks whole;
  private final TaskId[] ids;
  /** Position in {@link #ids} of the task left out, or -1 when none is. */
  private final int skipped;
  /** Each task's position, for lists longer than {@link #SEARCHED}; on the whole list only. */
  private final Map<TaskId, Integer> index;
  private final boolean distinct;
  private int hash;

  private EdgeTasks(TaskId[] ids) {
    this.whole = this;
    this.ids = ids;
    this.skipped = -1;
    if (ids.length > SEARCHED) {
      Map<TaskId, Integer> positions = new HashMap<>(ids.length * 2);
      for (int i = ids.length - 1; i >= 0; i--) {
        positions.put(ids[i], i); // the first position wins, as a search finds it
      }
      this.index = positions;
      this.distinct = positions.size() == ids.length;
    } else {
      this.index = null;
      this.distinct = List.of(ids).stream().distinct().count() == ids.length;
    }
  }

  private EdgeTasks(EdgeTasks whole, int skipped) {
    this.whole = whole;
    this.ids = whole.ids;
    this.skipped = skipped;
    this.index = null;
    this.distinct = whole.distinct;
  }

  /** The tasks, copied, unless they are an {@code EdgeTasks} already, which is shared as it is. */
  public static EdgeTasks of(Collection<TaskId> tasks) {
    if (tasks instanceof EdgeTasks shared) {
      return shared;
    }
    TaskId[] ids = tasks.toArray(new TaskId[0]);
    for (TaskId id : ids) {
      Objects.requireNonNull(id, "task");
    }
    return new EdgeTasks(ids);
  }

  /**
   * These tasks without {@code task}: this very list when it is not among them, else a view of the
   * whole list that leaves it out (a view of a view is a copy: no edge needs one).
   */
  public EdgeTasks without(TaskId task) {
    int at = whole.position(task);
    if (at < 0 || at == skipped) {
      return this;
    }
    if (skipped >= 0) {
      return new EdgeTasks(stream().filter(t -> !t.equals(task)).toArray(TaskId[]::new));
    }
    return new EdgeTasks(this, at);
  }

  /**
   * The shared list this one is a view of, or this list: the same object for every edge that names
   * these tasks, whatever task it leaves out.
   */
  public EdgeTasks whole() {
    return whole;
  }

  /** The task this view leaves out of its {@link #whole()} list, if it is one. */
  public Optional<TaskId> leftOut() {
    return skipped < 0 ? Optional.empty() : Optional.of(ids[skipped]);
  }

  /** Whether no task is named twice. */
  public boolean distinct() {
    return distinct;
  }

  @Override
  public TaskId get(int i) {
    Objects.checkIndex(i, size());
    return ids[skipped >= 0 && i >= skipped ? i + 1 : i];
  }

  @Override
  public int size() {
    return skipped < 0 ? ids.length : ids.length - 1;
  }

  @Override
  public boolean contains(Object o) {
    if (!(o instanceof TaskId id)) {
      return false;
    }
    int at = whole.position(id);
    return at >= 0 && (at != skipped || !distinct && indexOf(id) >= 0);
  }

  private int position(TaskId id) {
    if (index != null) {
      return index.getOrDefault(id, -1);
    }
    for (int i = 0; i < ids.length; i++) {
      if (ids[i].equals(id)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public boolean equals(Object o) {
    if (o instanceof EdgeTasks other && other.whole == whole && other.skipped == skipped) {
      return true;
    }
    return super.equals(o);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = super.hashCode(); // a race computes the same value twice
      hash = h;
    }
    return h;
  }
}

package dev.berth.report;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A group split as fedflow's report splits it: the tasks that succeeded with their result columns and
 * times, and the ones that did not.
 *
 * @param group the group
 * @param succeeded tasks that succeeded, in submission order
 * @param unsuccessful every other task that started or ended, in submission order
 * @param unstarted ids of the pending tasks that never started ({@link Unstarted}), in submission order
 * @param resultKeys result keys of the succeeded tasks, sorted, without the time keys
 * @param stageTimes whether any succeeded task reported {@code load_time} or {@code train_time}; when none
 *     did, the run time is shown instead
 */
record GroupView(
    GroupReport group, List<TaskReport> succeeded, List<TaskReport> unsuccessful, List<String> unstarted,
    List<String> resultKeys, boolean stageTimes) {

  /** fedflow's result keys for the time spent loading data and training, in seconds. */
  static final String LOAD_TIME = "load_time";

  static final String TRAIN_TIME = "train_time";

  static GroupView of(GroupReport g, Map<String, ? extends Map<String, ?>> results) {
    List<TaskReport> ok = new ArrayList<>();
    List<TaskReport> notOk = new ArrayList<>();
    List<String> unstarted = new ArrayList<>();
    TreeSet<String> keys = new TreeSet<>();
    for (TaskReport t : g.tasks()) {
      if (t.status() == TaskStatus.SUCCEEDED) {
        ok.add(t);
        keys.addAll(Values.resultsOf(results, t.id()).keySet());
      } else if (Unstarted.is(t)) {
        unstarted.add(t.id());
      } else {
        notOk.add(t);
      }
    }
    boolean stageTimes = keys.contains(LOAD_TIME) || keys.contains(TRAIN_TIME);
    keys.remove(LOAD_TIME);
    keys.remove(TRAIN_TIME);
    return new GroupView(g, List.copyOf(ok), List.copyOf(notOk), List.copyOf(unstarted), List.copyOf(keys), stageTimes);
  }
}

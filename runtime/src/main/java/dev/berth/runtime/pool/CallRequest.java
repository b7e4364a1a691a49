package dev.berth.runtime.pool;

import dev.berth.core.model.PoolSpec;
import dev.berth.protocol.pool.EngineHelper;
import dev.berth.report.ResultFile;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a call task's attempt asks of its pool, read from its launch request: the command that would
 * run it as a process (the Python helper's {@code call} form, see {@link EngineHelper#callCommand}, or
 * a Java task's worker command) and the pool it carries. Both kinds start their engines the same way:
 * the command's launcher, then {@code engine}, the pool's setup and the import paths.
 *
 * @param pool the pool's settings
 * @param kind Python or Java
 * @param launcher the command up to what it runs: {@code python3 -u berth_engine.py} or
 *     {@code java [jvm-args] -cp CP dev.berth.task.worker.WorkerMain}; engines of a pool are shared
 *     only by calls with the same launcher
 * @param function {@code module:function}, or the Java task's class
 * @param kwargsJson the keyword arguments as a JSON object ({@code {}} for Java)
 * @param paths folders the function's module is imported from
 * @param device the device placement chose, which the engine is pinned to
 */
record CallRequest(PoolSpec pool, Kind kind, List<String> launcher, String function, String kwargsJson,
    List<String> paths, String device) {

  /** The language an engine runs. */
  enum Kind { PYTHON, JAVA }

  /** The call {@code request} asks for, or empty when it is no call task of a pool. */
  static Optional<CallRequest> of(LaunchRequest request) {
    if (request.pool().isEmpty()) {
      return Optional.empty();
    }
    PoolSpec pool = request.pool().get();
    List<String> argv = request.command();
    String device = request.reservation().device();
    int worker = argv.indexOf(EngineHelper.JAVA_WORKER);
    if (worker > 0 && worker == argv.size() - 2) {
      return Optional.of(new CallRequest(pool, Kind.JAVA, List.copyOf(argv.subList(0, worker + 1)),
          argv.get(worker + 1), "{}", List.of(), device));
    }
    if (argv.size() < 6 || !EngineHelper.CALL.equals(argv.get(3))) {
      return Optional.empty();
    }
    List<String> paths = new ArrayList<>();
    for (int i = 6; i + 1 < argv.size(); i += 2) {
      if (EngineHelper.PATH.equals(argv.get(i))) {
        paths.add(argv.get(i + 1));
      }
    }
    return Optional.of(new CallRequest(pool, Kind.PYTHON, List.copyOf(argv.subList(0, 3)), argv.get(4), argv.get(5),
        List.copyOf(paths), device));
  }

  /** The command that starts an engine for this call: the launcher, {@code engine}, the setup, the paths. */
  List<String> engineCommand() {
    List<String> argv = new ArrayList<>(launcher);
    argv.add(EngineHelper.ENGINE);
    if (!pool.setup().isEmpty()) {
      argv.addAll(List.of(EngineHelper.SETUP, pool.setup()));
    }
    paths.forEach(p -> argv.addAll(List.of(EngineHelper.PATH, p)));
    return argv;
  }

  /** Where the call's return value goes: {@code result.json} in the task's folder. */
  static Path resultFile(LaunchRequest request) {
    String dir = request.env().get("BERTH_TASK_DIR");
    return (dir != null ? Path.of(dir) : request.workdir()).resolve(ResultFile.NAME);
  }
}

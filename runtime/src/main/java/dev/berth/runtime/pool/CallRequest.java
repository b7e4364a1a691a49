package dev.berth.runtime.pool;

import dev.berth.core.pool.PoolSpec;
import dev.berth.protocol.pool.EngineHelper;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a call task's attempt asks of its pool, read from its launch request: the command a call task
 * has (the helper's {@code call} form, see {@link EngineHelper#callCommand}) and its pool variables.
 *
 * @param pool the pool's settings
 * @param python the interpreter
 * @param function {@code module:function}
 * @param kwargsJson the keyword arguments as a JSON object
 * @param paths folders the function's module is imported from
 * @param device the device placement chose, which the engine is pinned to
 */
record CallRequest(PoolSpec pool, String python, String function, String kwargsJson, List<String> paths,
    String device) {

  /** The call {@code request} asks for, or empty when it is no call task of a pool. */
  static Optional<CallRequest> of(LaunchRequest request) {
    String name = request.env().get(PoolSpec.POOL_VARIABLE);
    String settings = request.env().get(PoolSpec.SETTINGS_VARIABLE);
    List<String> argv = request.command();
    if (name == null || settings == null || argv.size() < 6 || !EngineHelper.CALL.equals(argv.get(3))) {
      return Optional.empty();
    }
    List<String> paths = new ArrayList<>();
    for (int i = 6; i + 1 < argv.size(); i += 2) {
      if (EngineHelper.PATH.equals(argv.get(i))) {
        paths.add(argv.get(i + 1));
      }
    }
    return Optional.of(new CallRequest(PoolSpec.parse(name, settings), argv.get(0), argv.get(4), argv.get(5),
        List.copyOf(paths), request.reservation().device()));
  }

  /** Where the call's return value goes: {@code result.json} in the task's folder. */
  static Path resultFile(LaunchRequest request) {
    String dir = request.env().get("BERTH_TASK_DIR");
    return (dir != null ? Path.of(dir) : request.workdir()).resolve("result.json");
  }
}

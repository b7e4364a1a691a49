package dev.berth.runtime.gpu;

import dev.berth.os.CommandRunner;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A {@link CommandRunner} that answers each argv with what the test scripted; unscripted argv are "not found". */
final class ScriptedRunner implements CommandRunner {

  private final Map<List<String>, Object> answers = new HashMap<>();
  final List<List<String>> calls = new ArrayList<>();
  final List<Duration> timeouts = new ArrayList<>();

  ScriptedRunner answer(List<String> argv, Result result) {
    answers.put(argv, result);
    return this;
  }

  ScriptedRunner fail(List<String> argv, IOException failure) {
    answers.put(argv, failure);
    return this;
  }

  ScriptedRunner answerBoth(Result result) {
    return answer(NvidiaSmiCsv.QUERY_GPUS, result).answer(NvidiaSmiCsv.QUERY_COMPUTE_APPS, result);
  }

  @Override
  public Result run(List<String> argv, Duration timeout) throws IOException {
    calls.add(argv);
    timeouts.add(timeout);
    Object answer = answers.get(argv);
    if (answer instanceof Result r) {
      return r;
    }
    if (answer instanceof IOException e) {
      throw e;
    }
    throw new IOException("Cannot run program \"" + argv.get(0) + "\": error=2, No such file or directory");
  }
}

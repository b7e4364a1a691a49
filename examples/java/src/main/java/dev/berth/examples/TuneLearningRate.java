package dev.berth.examples;

import dev.berth.client.Berth;
import dev.berth.client.BerthOptions;
import dev.berth.client.Tasks;
import dev.berth.client.TuneResult;
import dev.berth.report.Objective;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A grid search over learning rate and batch size, as FLGo's {@code tune}: one task per
 * combination, run in parallel within the machine's limits, ranked by the {@code val_loss} each
 * writes to its {@code result.json}. The objective is synthetic and smallest at lr 0.03, batch 32.
 *
 * <pre>
 * java dev.berth.examples.TuneLearningRate [WORKDIR]
 * </pre>
 */
public final class TuneLearningRate {

  private TuneLearningRate() {}

  /** Runs the search into {@code berth-out/tune-java} and prints the table and the best option. */
  public static void main(String[] args) throws Exception {
    Path workdir = Path.of(args.length > 0 ? args[0] : "berth-out/tune-java");
    TuneResult result = run(FedAvgRounds.scripts(), workdir);
    System.out.print(result.render());
    System.out.println("best: " + result.bestOption().orElseThrow());
  }

  /** Runs the search and returns its result. */
  public static TuneResult run(Path scripts, Path workdir) throws InterruptedException {
    return run(scripts, BerthOptions.builder().workdir(workdir));
  }

  /** As {@link #run(Path, Path)}, in a session with {@code session}'s options besides its name, GPUs and objective. */
  public static TuneResult run(Path scripts, BerthOptions.Builder session) throws InterruptedException {
    Map<String, List<?>> grid = new LinkedHashMap<>(); // keys in this order; the last varies fastest
    grid.put("lr", List.of(0.3, 0.1, 0.03, 0.01));
    grid.put("batch", List.of(8, 32, 128));
    BerthOptions options = session.name("tune-java").gpus("none")
        .objective(Objective.min("val_loss")) // the sweep section of report.html ranks by it too
        .build();
    try (Berth berth = Berth.local(options)) {
      return berth.tune(grid,
          Tasks.template("lr{lr}-b{batch}", "python3", scripts.resolve("tune_objective.py").toString(),
              "--lr", "{lr}", "--batch", "{batch}").memory("32MiB").cpus(0.5),
          Objective.min("val_loss"));
    }
  }
}

package fedavg;

import dev.berth.task.BerthTask;
import dev.berth.task.Device;
import dev.berth.task.TaskContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The aggregation step of a federated-averaging round, a two-stage Berth task.
 *
 * <p>{@code load} (on the CPU) builds the held-out synthetic test set. {@code train} averages the
 * model.json of every task this one runs after (this round's clients, whose folders Berth passes
 * as {@code BERTH_DEP_<ID>_DIR}), weighted by each client's shard size (FedAvg), writes the global
 * model to model.json in its own folder, evaluates it on the test set, prints the accuracy,
 * publishes it as the item {@code acc} (fedflow's set_item) and returns {@code round} and
 * {@code acc}, which Berth writes to result.json.
 */
public class Aggregate implements BerthTask {

  private Data testSet;

  @Override
  public void load(TaskContext context) {
    testSet = Data.testSet();
  }

  @Override
  public Map<String, Object> train(Device device, TaskContext context) throws Exception {
    List<Model> models = new ArrayList<>();
    for (Map.Entry<String, String> dep : new TreeMap<>(context.dependencyDirs()).entrySet()) {
      models.add(Model.read(Path.of(dep.getValue())).orElseThrow(() -> new IllegalStateException(
          "client " + dep.getKey() + " left no model.json in " + dep.getValue())));
    }
    if (models.isEmpty()) {
      throw new IllegalStateException("no client models: run this task after the round's clients");
    }
    if (models.stream().mapToInt(Model::round).distinct().count() != 1) {
      throw new IllegalStateException("the client models come from different rounds");
    }
    Model global = Model.average(models);
    global.write(context.workdir());
    double[] lossAcc = global.evaluate(testSet);
    System.out.printf("round %d: test accuracy %.3f, loss %.4f (%d clients, %d samples)%n",
        global.round(), lossAcc[1], lossAcc[0], models.size(), global.samples());
    System.out.flush();
    context.setItem("acc", lossAcc[1]);
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("round", global.round());
    result.put("acc", TrainClient.round4(lossAcc[1]));
    result.put("loss", TrainClient.round4(lossAcc[0]));
    result.put("clients", models.size());
    result.put("samples", global.samples());
    return result;
  }
}

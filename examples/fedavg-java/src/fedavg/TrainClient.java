package fedavg;

import dev.berth.task.BerthTask;
import dev.berth.task.Device;
import dev.berth.task.TaskContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One federated-averaging client, a two-stage Berth task.
 *
 * <p>{@code load} (on the CPU) builds this client's shard of the synthetic dataset; the client id
 * is the matrix value {@code client} ({@code BERTH_PARAM_CLIENT}). {@code train} (on the device
 * Berth hands over; {@code cpu} here) starts from the previous round's global model, the model.json
 * in the folder of the aggregate task this one runs after ({@code BERTH_DEP_AGGREGATE_<K>_DIR}),
 * or from zeros in round 1; runs a few epochs of SGD, writes model.json into its own folder and
 * returns the loss and accuracy on its shard, which Berth writes to result.json.
 */
public class TrainClient implements BerthTask {

  private int client;
  private Data shard;

  @Override
  public void load(TaskContext context) {
    client = Integer.parseInt(context.params().getOrDefault("client", "0"));
    shard = Data.shard(client);
    context.setItem("samples", shard.size());
  }

  @Override
  public Map<String, Object> train(Device device, TaskContext context) throws Exception {
    Model start = previousGlobalModel(context);
    int round = start.round() + 1;
    Model model = start.sgd(shard, Model.LOCAL_EPOCHS, Model.LEARNING_RATE, 1000L * round + client, round);
    model.write(context.workdir());
    double[] lossAcc = model.evaluate(shard);
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("round", round);
    result.put("client", client);
    result.put("samples", shard.size());
    result.put("loss", round4(lossAcc[0]));
    result.put("acc", round4(lossAcc[1]));
    result.put("device", device.name());
    return result;
  }

  /** The aggregate model this client starts from; zeros (round 0) when it runs after nothing. */
  private static Model previousGlobalModel(TaskContext context) throws Exception {
    List<Model> found = new ArrayList<>();
    for (String dir : context.dependencyDirs().values()) {
      Model.read(Path.of(dir)).ifPresent(found::add);
    }
    if (found.size() > 1) {
      throw new IllegalStateException("expected one previous aggregate model, found " + found.size()
          + " in " + context.dependencyDirs());
    }
    return found.isEmpty() ? Model.zero() : found.get(0);
  }

  static double round4(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }
}

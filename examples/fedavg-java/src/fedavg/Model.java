package fedavg;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A logistic-regression model as it travels between rounds: the weights, the bias, and the
 * bookkeeping FedAvg needs (how many samples it was trained on, in which round). It is stored as
 * model.json in a task's folder, in the same shape as the Python example's:
 * {@code {"weights": [...], "bias": b, "samples": n, "round": k}}.
 *
 * @param weights one per feature
 * @param bias the intercept
 * @param samples the samples behind this model (a client's shard, or all clients' together)
 * @param round the federated round that produced it, 0 for the initial model
 */
public record Model(double[] weights, double bias, int samples, int round) {

  public static final double LEARNING_RATE = 0.02;
  public static final int LOCAL_EPOCHS = 2;

  /** The initial global model: all zeros, round 0. */
  public static Model zero() {
    return new Model(new double[Data.DIM], 0.0, 0, 0);
  }

  /** Plain SGD on the log loss, one sample at a time, in an order shuffled by {@code seed}. */
  public Model sgd(Data data, int epochs, double lr, long seed, int newRound) {
    double[] w = weights.clone();
    double b = bias;
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < data.size(); i++) {
      order.add(i);
    }
    Random rng = new Random(seed);
    for (int e = 0; e < epochs; e++) {
      java.util.Collections.shuffle(order, rng);
      for (int i : order) {
        double[] x = data.x()[i];
        double error = sigmoid(dot(w, x) + b) - data.y()[i];
        for (int j = 0; j < w.length; j++) {
          w[j] -= lr * error * x[j];
        }
        b -= lr * error;
      }
    }
    return new Model(w, b, data.size(), newRound);
  }

  /** FedAvg: the average of the models weighted by their sample counts. */
  public static Model average(List<Model> models) {
    if (models.isEmpty()) {
      throw new IllegalArgumentException("nothing to average");
    }
    int total = models.stream().mapToInt(Model::samples).sum();
    double[] w = new double[Data.DIM];
    double b = 0;
    for (Model m : models) {
      double share = (double) m.samples() / total;
      for (int j = 0; j < w.length; j++) {
        w[j] += share * m.weights()[j];
      }
      b += share * m.bias();
    }
    return new Model(w, b, total, models.get(0).round());
  }

  /** The mean log loss and the accuracy on {@code data}. */
  public double[] evaluate(Data data) {
    double loss = 0;
    int right = 0;
    for (int i = 0; i < data.size(); i++) {
      double p = Math.min(Math.max(sigmoid(dot(weights, data.x()[i]) + bias), 1e-12), 1 - 1e-12);
      int y = data.y()[i];
      loss -= y == 1 ? Math.log(p) : Math.log(1 - p);
      if ((p >= 0.5) == (y == 1)) {
        right++;
      }
    }
    return new double[] {loss / data.size(), (double) right / data.size()};
  }

  /** Writes model.json into {@code folder} atomically: a reader never sees half a file. */
  public void write(Path folder) throws IOException {
    String json = "{\n \"weights\": ["
        + Arrays.stream(weights).mapToObj(Double::toString).collect(Collectors.joining(", "))
        + "],\n \"bias\": " + bias + ",\n \"samples\": " + samples + ",\n \"round\": " + round + "\n}\n";
    Path tmp = folder.resolve("model.json.tmp");
    Files.writeString(tmp, json, StandardCharsets.UTF_8);
    Files.move(tmp, folder.resolve("model.json"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The model.json in {@code folder}, if there is one. Reads only the shape {@link #write} writes. */
  public static Optional<Model> read(Path folder) throws IOException {
    Path file = folder.resolve("model.json");
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    String json = Files.readString(file, StandardCharsets.UTF_8);
    String list = field(json, "weights", "\\[([^\\]]*)\\]");
    double[] w = Arrays.stream(list.split(",")).map(String::trim).mapToDouble(Double::parseDouble).toArray();
    if (w.length != Data.DIM) {
      throw new IOException(file + ": expected " + Data.DIM + " weights, found " + w.length);
    }
    String number = "(-?[0-9][0-9.eE+-]*)";
    return Optional.of(new Model(w, Double.parseDouble(field(json, "bias", number)),
        (int) Double.parseDouble(field(json, "samples", number)), (int) Double.parseDouble(field(json, "round", number))));
  }

  private static String field(String json, String name, String valuePattern) throws IOException {
    Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*" + valuePattern).matcher(json);
    if (!m.find()) {
      throw new IOException("model.json has no " + name);
    }
    return m.group(1);
  }

  private static double dot(double[] w, double[] x) {
    double s = 0;
    for (int j = 0; j < w.length; j++) {
      s += w[j] * x[j];
    }
    return s;
  }

  private static double sigmoid(double z) {
    if (z >= 0) {
      return 1 / (1 + Math.exp(-z));
    }
    double e = Math.exp(z);
    return e / (1 + e);
  }
}

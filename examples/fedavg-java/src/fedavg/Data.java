package fedavg;

import java.util.Random;

/**
 * The synthetic data of the federated-averaging example: a binary classification problem for
 * logistic regression with {@link #DIM} features. Every client draws its own shard from its own
 * seed: a different number of samples and a shifted feature distribution (the shards are not
 * identically distributed, as in real federated learning). The labels of every shard and of the
 * held-out test set come from one hidden model with some noise. The features have very different
 * scales, which makes plain SGD slow on the small ones: the global model keeps improving over
 * several rounds instead of converging in the first.
 *
 * @param x one row of features per sample
 * @param y the labels, 0 or 1
 */
public record Data(double[][] x, int[] y) {

  public static final int DIM = 8;
  public static final int CLIENTS = 4;
  public static final int TEST_SAMPLES = 1000;

  /** Feature j is scaled by SCALES[j]; the hidden model is given for the unscaled features. */
  private static final double[] SCALES = {3.0, 2.0, 1.5, 1.0, 0.6, 0.4, 0.3, 0.2};
  private static final double[] TRUE_WEIGHTS = new double[DIM];
  private static final double TRUE_BIAS = 0.5;
  private static final double LABEL_NOISE = 1.0;

  static {
    Random hidden = new Random(2024);
    for (int j = 0; j < DIM; j++) {
      TRUE_WEIGHTS[j] = (hidden.nextBoolean() ? 1 : -1) * (1.0 + hidden.nextDouble());
    }
  }

  /** Clients hold 150, 250, 350 and 450 samples: FedAvg weights them by that. */
  public static int shardSize(int client) {
    return 150 + 100 * client;
  }

  /** Client {@code client}'s training data, the same on every call. */
  public static Data shard(int client) {
    Random rng = new Random(client);
    double[] shift = shift(client);
    Data data = new Data(new double[shardSize(client)][], new int[shardSize(client)]);
    for (int i = 0; i < data.size(); i++) {
      draw(rng, shift, data, i);
    }
    return data;
  }

  /** The held-out test set: TEST_SAMPLES points drawn from all clients' distributions alike. */
  public static Data testSet() {
    Random rng = new Random(10_000);
    double[][] shifts = new double[CLIENTS][];
    for (int c = 0; c < CLIENTS; c++) {
      shifts[c] = shift(c);
    }
    Data data = new Data(new double[TEST_SAMPLES][], new int[TEST_SAMPLES]);
    for (int i = 0; i < TEST_SAMPLES; i++) {
      draw(rng, shifts[rng.nextInt(CLIENTS)], data, i);
    }
    return data;
  }

  public int size() {
    return y.length;
  }

  private static double[] shift(int client) {
    Random rng = new Random(7919L * (client + 1));
    double[] shift = new double[DIM];
    for (int j = 0; j < DIM; j++) {
      shift[j] = 0.7 * rng.nextGaussian();
    }
    return shift;
  }

  private static void draw(Random rng, double[] shift, Data into, int i) {
    double[] row = new double[DIM];
    double score = TRUE_BIAS;
    for (int j = 0; j < DIM; j++) {
      double raw = shift[j] + rng.nextGaussian();
      score += TRUE_WEIGHTS[j] * raw;
      row[j] = raw * SCALES[j];
    }
    score += LABEL_NOISE * rng.nextGaussian();
    into.x[i] = row;
    into.y[i] = score > 0 ? 1 : 0;
  }
}

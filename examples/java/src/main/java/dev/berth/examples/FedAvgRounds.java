package dev.berth.examples;

import dev.berth.client.Berth;
import dev.berth.client.BerthOptions;
import dev.berth.client.GroupBuilder;
import dev.berth.client.GroupResult;
import dev.berth.client.Groups;
import dev.berth.client.TaskBuilder;
import dev.berth.client.TaskResult;
import dev.berth.client.Tasks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Federated averaging driven from Java, as fedflow's cifar example: each round runs N client
 * training tasks in parallel (a group), then one aggregate task that averages their models and
 * tests the average. Each client starts from the previous round's aggregate, which it finds in the
 * folder of the task it depends on; the aggregate finds the clients' models the same way.
 *
 * <pre>
 * java dev.berth.examples.FedAvgRounds [ROUNDS] [CLIENTS] [WORKDIR]
 * </pre>
 */
public final class FedAvgRounds {

  private FedAvgRounds() {}

  /** Runs 5 rounds of 4 clients into {@code berth-out/fedavg-java} and prints the accuracy per round. */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int clients = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    Path workdir = Path.of(args.length > 2 ? args[2] : "berth-out/fedavg-java");
    List<Double> accuracy = run(scripts(), workdir, rounds, clients);
    System.out.println("accuracy per round: " + accuracy);
  }

  /**
   * Runs the rounds and returns the aggregate's accuracy after each.
   *
   * @param scripts the folder holding fedavg_train.py and fedavg_aggregate.py
   */
  public static List<Double> run(Path scripts, Path workdir, int rounds, int clients) throws InterruptedException {
    return run(scripts, BerthOptions.builder().workdir(workdir), rounds, clients);
  }

  /**
   * As {@link #run(Path, Path, int, int)}, in a session with {@code session}'s options (its workdir, say)
   * besides its name and GPUs.
   */
  public static List<Double> run(Path scripts, BerthOptions.Builder session, int rounds, int clients)
      throws InterruptedException {
    String train = scripts.resolve("fedavg_train.py").toString();
    String aggregate = scripts.resolve("fedavg_aggregate.py").toString();
    List<Double> accuracy = new ArrayList<>();
    BerthOptions options = session.name("fedavg-java").gpus("none").build();
    try (Berth berth = Berth.local(options)) {
      String previous = null;
      for (int round = 1; round <= rounds; round++) {
        // Task ids are unique within a session: the round is part of each id.
        GroupBuilder group = Groups.builder("train-r" + round).memory("64MiB").cpus(0.5);
        for (int c = 0; c < clients; c++) {
          TaskBuilder client = Tasks.command("r" + round + "-client-" + c, "python3", train, "--client", Integer.toString(c));
          if (previous != null) {
            client.after(previous); // reads the previous aggregate's model.json
          }
          group.task(client);
        }
        GroupResult trained = berth.execute(group);
        if (!trained.succeeded()) {
          throw new IllegalStateException("round " + round + ": " + trained.failures());
        }
        TaskResult averaged = berth.executeTask(
            Tasks.command("r" + round + "-aggregate", "python3", aggregate, "--round", Integer.toString(round))
                .after("group:train-r" + round)
                .memory("64MiB"));
        double acc = averaged.number("accuracy").orElseThrow(() -> new IllegalStateException(averaged.toString()));
        System.out.printf("round %d: accuracy %.3f (%d clients)%n", round, acc, clients);
        accuracy.add(acc);
        previous = averaged.id();
      }
    }
    return accuracy;
  }

  /** examples/java/scripts from the repository root, or scripts/ from examples/java. */
  static Path scripts() {
    Path fromRoot = Path.of("examples", "java", "scripts");
    return Files.isDirectory(fromRoot) ? fromRoot.toAbsolutePath() : Path.of("scripts").toAbsolutePath();
  }
}

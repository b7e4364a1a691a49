package dev.berth.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fastest a JVM can run short commands the way Berth launches a task, with no scheduling at
 * all: {@code P} threads each create a task folder, start the command through
 * {@link ProcessBuilder} with stdout and stderr redirected to files there, and wait for it.
 * A ceiling for Berth's end-to-end throughput, separating the JVM's cost of a process from Berth's.
 *
 * <p>Usage: {@code java -cp berth-benchmarks.jar dev.berth.bench.SpawnFloor DIR [TASKS [PARALLEL [COMMAND...]]]};
 * prints the tasks per second of the measured round (after an untimed warm-up round).
 */
public final class SpawnFloor {

  private SpawnFloor() {}

  /** Entry point. */
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: SpawnFloor DIR [TASKS [PARALLEL [COMMAND...]]]");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 500;
    int parallel = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    List<String> command = args.length > 3 ? List.of(args).subList(3, args.length) : List.of("true");

    round(dir.resolve("warmup"), Math.min(tasks, 100), parallel, command);
    double seconds = round(dir.resolve("measured"), tasks, parallel, command);
    System.out.printf("%.1f%n", tasks / seconds);
  }

  private static double round(Path dir, int tasks, int parallel, List<String> command) throws Exception {
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(parallel);
    try {
      long start = System.nanoTime();
      List<Future<Void>> workers = new ArrayList<>();
      for (int w = 0; w < parallel; w++) {
        workers.add(pool.submit(() -> {
          for (int i = next.getAndIncrement(); i < tasks; i = next.getAndIncrement()) {
            runOne(dir.resolve("t-" + i), command);
          }
          return null;
        }));
      }
      for (Future<Void> f : workers) {
        f.get();
      }
      return (System.nanoTime() - start) / 1e9;
    } finally {
      pool.shutdown();
    }
  }

  private static void runOne(Path taskDir, List<String> command) throws IOException, InterruptedException {
    Files.createDirectories(taskDir);
    Process p = new ProcessBuilder(command)
        .directory(taskDir.toFile())
        .redirectOutput(taskDir.resolve("stdout.log").toFile())
        .redirectError(taskDir.resolve("stderr.log").toFile())
        .start();
    int code = p.waitFor();
    if (code != 0) {
      throw new IllegalStateException(command + " exited with code " + code);
    }
  }
}

package dev.berth.task.worker;

/**
 * Runs a {@link dev.berth.task.BerthTask} as a Berth task process:
 *
 * <pre>java -cp &lt;your classpath&gt;:berth-task-api.jar dev.berth.task.worker.WorkerMain com.example.TrainTask</pre>
 *
 * <p>Under Berth ({@code BERTH_CONTROL} set) it connects to Berth's control socket, says hello,
 * creates the task and follows Berth's commands: load, then train on the device Berth hands over,
 * then exit. Exit codes: 0 after a finished task, 3 after the task failed or ran out of memory, 2
 * when the task cannot be set up (class missing, no public no-argument constructor) or the
 * protocol breaks.
 *
 * <p>With {@code engine [--setup com.example.Warm::load]} instead of a class it is a warm engine of a
 * pool, running a task per request read on standard input (see {@code PoolWorker} and docs/pools.md).
 *
 * <p>Run by hand, without {@code BERTH_CONTROL}, it loads, trains on the CPU and prints the result
 * as JSON on stdout: a quick way to debug a task.
 */
public final class WorkerMain {

  private WorkerMain() {}

  /** Runs the task class named by the only argument, and exits with the worker's code. */
  public static void main(String[] args) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = WorkerMain.class.getClassLoader();
    }
    int code = args.length > 0 && args[0].equals(PoolWorker.MODE)
        ? new PoolWorker(System.getenv(), System.in, System.out, System.err, c -> Runtime.getRuntime().halt(c), loader)
            .run(java.util.List.of(args).subList(1, args.length))
        : new Worker(System.getenv(), System.out, System.err, System::exit, loader).run(args);
    // The task may have left non-daemon threads behind; they must not keep the process alive.
    System.exit(code);
  }
}

package dev.berth.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The one Slurm cluster that tests may submit to: the one the test setup started and named in
 * {@value #VARIABLE} (its {@code ClusterName}). A machine can reach a cluster that other people use, so
 * whatever {@code sinfo} finds is never enough: without the variable no Slurm command is run at all, and
 * with it the cluster that answers must carry that name and have a usable node. Otherwise the calling
 * tests are skipped with a line saying why.
 */
public final class TestSlurm {

  /** The environment variable that names the cluster the test setup started. */
  public static final String VARIABLE = "BERTH_TEST_SLURM";

  private static String unavailable;

  private TestSlurm() {}

  /** Skips the calling test (or class, from a {@code @BeforeAll}) unless the named cluster is up here. */
  public static synchronized void assumeUp() {
    org.junit.jupiter.api.Assumptions.assumeTrue(up(), unavailable);
  }

  /** Whether the named cluster answers here with a usable node (the reason is kept for {@link #assumeUp}). */
  public static synchronized boolean up() {
    if (unavailable == null) {
      unavailable = check(System::getenv, TestSlurm::run);
    }
    return unavailable.isEmpty();
  }

  /**
   * Why the cluster cannot be used, or "" when it can. {@code env} reads the environment and {@code
   * command} runs a command line, answering its output when it exits 0.
   */
  static String check(UnaryOperator<String> env, Command command) {
    String named = Optional.ofNullable(env.apply(VARIABLE)).map(String::strip).orElse("");
    if (named.isEmpty()) {
      return VARIABLE + " names no Slurm cluster that the test setup started: the Slurm cluster tests are "
          + "skipped (they never submit to a cluster they were not given)";
    }
    Optional<String> config = command.run(List.of("scontrol", "show", "config"));
    if (config.isEmpty()) {
      return "the Slurm cluster " + named + " does not answer (scontrol show config failed): the Slurm "
          + "cluster tests are skipped";
    }
    String name = config.get().lines().map(String::strip).filter(l -> l.startsWith("ClusterName"))
        .map(l -> l.substring(l.indexOf('=') + 1).strip()).findFirst().orElse("");
    if (!name.equals(named)) {
      return "the Slurm cluster here is '" + name + "', not '" + named + "' that " + VARIABLE
          + " names: the Slurm cluster tests are skipped";
    }
    Optional<String> states = command.run(List.of("sinfo", "--noheader", "--format=%t"));
    boolean usable = states.stream().flatMap(String::lines).map(String::strip)
        .anyMatch(s -> s.startsWith("idle") || s.startsWith("mix") || s.startsWith("alloc"));
    return usable ? "" : "no node of the Slurm cluster " + named + " is idle, mixed or allocated (sinfo says '"
        + states.orElse("").strip() + "'): the Slurm cluster tests are skipped";
  }

  /**
   * Cancels this user's jobs in the named cluster that work in a test's temporary folder (JUnit's
   * {@code junit…} folders under {@code java.io.tmpdir}), and waits, at most a minute, until the queue
   * holds none of them. The cluster tests call it after each test: a job left running there (a run that
   * left its jobs, a blocker, a dependant) writes its exit code into the test's folder as it ends, which
   * races the removal of that folder, and it would hold the node in the next test. Does nothing when the
   * named cluster is not up, so it never touches a cluster the tests were not given, and leaves every job
   * that works elsewhere alone.
   */
  public static synchronized void clearJobs() {
    if (!up()) {
      return;
    }
    Path tests = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().resolve("junit");
    List<String> argv = List.of("squeue", "--noheader", "--user=" + System.getProperty("user.name"),
        "--format=%i|%Z");
    List<String> jobs = run(argv).map(out -> testJobs(out, tests)).orElse(List.of());
    if (jobs.isEmpty()) {
      return;
    }
    List<String> scancel = new ArrayList<>(List.of("scancel"));
    scancel.addAll(jobs);
    run(scancel);
    long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (!run(argv).map(out -> testJobs(out, tests)).orElse(jobs).isEmpty() && System.nanoTime() < end) {
      try {
        Thread.sleep(200); // waiting on a real cluster: there is no event to wait for from here
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * The job ids, once each, in squeue's {@code %i|%Z} lines of the jobs whose working directory starts
   * with {@code tests} (a folder name's prefix, as JUnit's {@code junit12345} folders share one). An array
   * is named by its own id, which scancel takes for all its elements: squeue's {@code 12_[1-3%1]} is not
   * a name scancel accepts, and one bad name makes it cancel nothing.
   */
  static List<String> testJobs(String squeue, Path tests) {
    Set<String> ids = new LinkedHashSet<>();
    squeue.lines().map(String::strip).filter(l -> l.contains("|")).forEach(l -> {
      String id = l.substring(0, l.indexOf('|'));
      if (l.substring(l.indexOf('|') + 1).startsWith(tests.toString())) {
        ids.add(id.contains("_") ? id.substring(0, id.indexOf('_')) : id);
      }
    });
    return List.copyOf(ids);
  }

  /** Runs a command line and answers its output, empty when it cannot start, fails or takes over 30 s. */
  @FunctionalInterface
  interface Command {
    Optional<String> run(List<String> argv);
  }

  private static Optional<String> run(List<String> argv) {
    try {
      Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
      if (!p.waitFor(30, TimeUnit.SECONDS)) { // the answers asked for are a few KiB, well inside a pipe's buffer
        p.destroyForcibly();
        return Optional.empty();
      }
      String out = new String(p.getInputStream().readAllBytes());
      return p.exitValue() == 0 ? Optional.of(out) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}

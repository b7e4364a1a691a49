package dev.berth.client;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The program {@link SessionResumeTest} runs in a child JVM and then again in its own: a session
 * that runs {@code quick} to its end, then submits {@code slow}, {@code retrying} (whose first
 * attempt fails) and {@code after} (which needs {@code slow}), says {@code submitted}, and waits for
 * a line on its standard input: the test either kills it meanwhile, or sends {@code exit}, and then
 * {@code main} returns without closing the session.
 *
 * <p>Every task counts its runs in {@code <signals>/<id>.runs}; {@code slow} and {@code retrying}
 * write {@code <signals>/<id>.started} once running and then wait for {@code <signals>/go} before
 * they write their {@code result.json}.
 */
public final class ResumableSession {

  private ResumableSession() {}

  /** The options both JVMs open the session with. */
  static BerthOptions options(Path workdir) {
    return builder(workdir).build();
  }

  static BerthOptions.Builder builder(Path workdir) {
    return BerthOptions.builder()
        .name("resumable")
        .workdir(workdir)
        .gpus("none")
        .set("scheduler.default-memory", "16MiB")
        .set("remain-limit.memory", "0")
        .set("utilization-limit.cpu", 1.0)
        .set("utilization-limit.memory", 1.0);
  }

  static TaskBuilder quick(Path signals) {
    return task("quick", signals, "echo '{\"v\": 1}' > \"$BERTH_TASK_DIR/result.json\"");
  }

  static TaskBuilder slow(Path signals) {
    return task("slow", signals, waitForGo("slow") + "echo '{\"v\": 2}' > \"$BERTH_TASK_DIR/result.json\"");
  }

  static TaskBuilder retrying(Path signals) {
    return task("retrying", signals, "if [ \"$BERTH_ATTEMPT\" = 1 ]; then exit 3; fi; " + waitForGo("retrying")
        + "echo '{\"v\": 4}' > \"$BERTH_TASK_DIR/result.json\"").retries(2);
  }

  static TaskBuilder after(Path signals) {
    return task("after", signals, "echo '{\"v\": 3}' > \"$BERTH_TASK_DIR/result.json\"").after("slow");
  }

  private static String waitForGo(String id) {
    return "touch \"$SIG/" + id + ".started\"; while [ ! -f \"$SIG/go\" ]; do sleep 0.05; done; ";
  }

  private static TaskBuilder task(String id, Path signals, String script) {
    return Tasks.command(id, "sh", "-c", "echo run >> \"$SIG/" + id + ".runs\"; " + script)
        .env("SIG", signals.toString())
        .memory("8MiB");
  }

  /** Submits the tasks into a session on {@code args[0]} with signals in {@code args[1]}. */
  public static void main(String[] args) throws Exception {
    Path workdir = Path.of(args[0]);
    Path signals = Path.of(args[1]);
    Berth berth = Berth.local(options(workdir)); // never closed: the test kills this JVM, or main returns
    berth.submit(quick(signals)).get();
    berth.submit(slow(signals));
    berth.submit(retrying(signals));
    berth.submit(after(signals));
    System.out.println("submitted");
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line = in.readLine();
    System.out.println("leaving on " + line);
  }
}

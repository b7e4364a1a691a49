package dev.berth.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Parameter;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.core.units.DurationText;
import dev.berth.session.ClusterJobs;
import dev.berth.session.JournalView;
import dev.berth.session.SessionException;
import dev.berth.session.StatusJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code berth status [WORKDIR]}: where a run stands, read from its journal (safe while it runs):
 * per group counts and per task status, in the report's words and counted by its rule, with device,
 * attempt, run time, and why a waiting task is not placed.
 */
final class StatusCommand implements BerthCommand {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Parameter WORKDIR =
      Parameter.optional("WORKDIR", "The run's workdir (default: the most recent run under ./berth-out).");

  @Override
  public CommandSyntax syntax() {
    return CommandSyntax.describedAs("Show where a run stands: per group counts and per task state, device,"
        + " attempt, run time and why a waiting task is not placed. Safe while the run is live.")
        .parameter(WORKDIR).options(CommonArgs.JSON).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) throws IOException {
    Path workdir = args.path(WORKDIR);
    boolean json = args.flag(CommonArgs.JSON);
    Path dir = workdir != null ? workdir : JournalView.latest().orElse(null);
    if (dir == null) {
      err.println("berth: no run found under ./berth-out; name the run's workdir");
      return ExitCodes.BAD_INPUT;
    }
    JournalView view;
    try {
      view = JournalView.read(dir);
    } catch (SessionException e) {
      err.println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    ClusterJobs jobs = ClusterJobs.recorded(view.state(), dir).withStates();
    ObjectNode root = StatusJson.of(view, Instant.now(), new StatusJson.Extras() {
      @Override
      public void run(ObjectNode run) {
        jobs.allocation().ifPresent(a -> run.put("allocation", a + jobs.state(a).map(s -> " " + s).orElse("")));
      }

      @Override
      public void task(TaskRecord r, ObjectNode n) {
        jobs.job(r).ifPresent(job -> {
          n.put("slurmJob", job);
          jobs.state(job).ifPresent(state -> n.put("slurmState", state));
        });
      }
    });
    Optional<String> holder = Optional.ofNullable(root.path("holder").textValue());
    JsonNode groups = root.get("groups");
    JsonNode tasks = root.get("tasks");
    if (json) {
      out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
      return ExitCodes.OK;
    }
    out.println(root.get("run").asText() + ": " + root.get("status").asText()
        + holder.map(h -> " (" + h + ")").orElse("")
        + (root.has("allocation") ? "; allocation " + root.get("allocation").asText() : ""));
    jobs.problem().ifPresent(p -> out.println("  (Slurm states unknown: " + p + ")"));
    if (root.has("containment")) {
      out.println("  task containment: " + root.get("containment").asText());
    }
    for (JsonNode g : groups) {
      out.printf("  %-16s %s%n", g.get("name").asText(), g.get("summary").asText());
    }
    for (JsonNode t : tasks) {
      String runtime = t.has("runtimeMs") ? DurationText.format(Duration.ofMillis(t.get("runtimeMs").asLong())) : "";
      String where = t.has("slurmJob")
          ? "job " + t.get("slurmJob").asText() + " " + t.path("slurmState").asText("")
          : t.path("device").asText("");
      out.printf("  %-24s %-11s %-12s #%d %8s %s%n", t.get("id").asText(), t.get("status").asText(),
          where, t.get("attempt").asInt(), runtime, note(t));
    }
    return ExitCodes.OK;
  }

  /** Why a task waits, why it ended as it did, or, while it has not ended, where it is in its life. */
  private static String note(JsonNode t) {
    if (t.has("waitingFor")) {
      return "waiting for " + t.get("waitingFor").asText();
    }
    if (t.has("reason")) {
      return t.get("reason").asText();
    }
    String status = t.get("status").asText();
    String state = t.get("state").asText();
    boolean ended = !status.equals(TaskStatus.RUNNING.name()) && !status.equals(TaskStatus.PENDING.name())
        && !status.equals(TaskStatus.INTERRUPTED.name());
    return ended || state.equals(status) ? "" : state.toLowerCase(Locale.ROOT).replace('_', ' ');
  }

}

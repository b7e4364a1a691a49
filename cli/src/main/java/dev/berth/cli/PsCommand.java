package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.resources.Resource;
import dev.berth.session.HostRuns;
import dev.berth.spi.SharedReservations.Reservation;
import dev.berth.spi.SharedReservations.RunEntry;
import dev.berth.spi.SharedReservationsException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/** {@code berth ps}: every Berth run on this host, whoever started it, from the host ledger. */
final class PsCommand implements BerthCommand {

  private static final Option ALL = Option.flag("--all", "Include runs that ended in the last day.").alias("-a");

  private final UnaryOperator<String> env;

  /** The command on this process's environment. */
  PsCommand() {
    this(System::getenv);
  }

  /** The command on another environment ({@code BERTH_HOST_DIR}), for tests. */
  PsCommand(UnaryOperator<String> env) {
    this.env = env;
  }

  @Override
  public CommandSyntax syntax() {
    return CommandSyntax.describedAs("List every live Berth run on this host, whoever started it: user, run,"
        + " workdir, state, progress, running and waiting tasks, and what it holds on each device.")
        .options(ALL, CommonArgs.JSON).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) {
    boolean all = args.flag(ALL);
    boolean json = args.flag(CommonArgs.JSON);
    Path dir = HostRuns.folder(env);
    List<RunEntry> runs;
    try {
      runs = HostRuns.read(dir, all, Instant.now());
    } catch (SharedReservationsException | IllegalArgumentException e) {
      err.println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    out.print(json ? json(runs) : table(runs, all));
    out.flush();
    return ExitCodes.OK;
  }

  /**
   * The runs as a table, one line each, and below a run whose tasks wait a line saying why; a line
   * saying there are none when there are none.
   */
  static String table(List<RunEntry> runs, boolean all) {
    if (runs.isEmpty()) {
      return all ? "no Berth runs on this host in the last day\n" : "no Berth runs on this host\n";
    }
    List<String[]> rows = new ArrayList<>();
    List<Optional<String>> whys = new ArrayList<>();
    rows.add(new String[] {"USER", "RUN", "PID", "STATE", "DONE", "RUNNING", "WAITING", "HOLDS", "WORKDIR"});
    whys.add(Optional.empty());
    for (RunEntry r : runs) {
      rows.add(new String[] {r.user(), r.name(), Long.toString(r.pid()), r.progress().state(),
          r.progress().done() + "/" + r.progress().total(), Integer.toString(r.progress().running()),
          Integer.toString(r.progress().waiting()), holds(r.reservations()), r.workdir()});
      whys.add(HostRuns.whyWaiting(r));
    }
    return Columns.render(rows, whys);
  }

  /** What a run holds per device, e.g. {@code cuda:0 20 GiB, host 2 cpus 1 GiB}; {@code -} for nothing. */
  static String holds(List<Reservation> reservations) {
    Map<String, long[]> byDevice = new TreeMap<>();
    for (Reservation r : reservations) {
      long[] sums = byDevice.computeIfAbsent(r.label(), k -> new long[2]);
      sums[0] += r.bytes();
      sums[1] += r.milliCpus();
    }
    List<String> parts = new ArrayList<>();
    byDevice.forEach((device, sums) -> {
      List<String> what = new ArrayList<>();
      if (sums[1] > 0) {
        what.add(Resource.CPUS.format(sums[1]) + " cpus");
      }
      if (sums[0] > 0) {
        what.add(Resource.MEMORY.format(sums[0]));
      }
      if (!what.isEmpty()) {
        parts.add(device + " " + String.join(" ", what));
      }
    });
    return parts.isEmpty() ? "-" : String.join(", ", parts);
  }

  /**
   * The runs as JSON: an array of objects with sizes in bytes and cores in thousandths, and
   * {@code waitingFor} on a run whose tasks wait.
   */
  static String json(List<RunEntry> runs) {
    try {
      ArrayNode array = new ObjectMapper().createArrayNode();
      for (RunEntry r : runs) {
        ObjectNode run = HostRuns.json(r);
        HostRuns.whyWaiting(r).ifPresent(why -> run.put("waitingFor", why));
        array.add(run);
      }
      return new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(array) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}

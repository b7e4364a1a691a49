package dev.berth.cli;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.lifecycle.Learned;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.report.Totals;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.resources.Refusal;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.core.units.ByteSize;
import dev.berth.core.units.DurationText;
import dev.berth.session.SessionListener;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the user sees while a run goes on. On a terminal: a block of progress lines per group,
 * redrawn a few times a second. Elsewhere: quiet, one line per failed task and per finished group,
 * and one when tasks have waited a few seconds with nothing started, saying why.
 * Always: a summary at the end, printed after the report is on disk.
 */
final class ConsoleView implements SessionListener, AutoCloseable {

  private final PrintStream out;
  private final boolean live;
  private final boolean color;
  private final InstantSource clock;
  private final List<GroupLine> groups = new ArrayList<>();
  private ScheduledExecutorService redraw;
  private int drawnLines;
  /** How long tasks wait with nothing started before a console that is not redrawn says why. */
  static final Duration STALL = Duration.ofSeconds(5);

  private String blockedBy = "";
  /** {@link #kind} of what holds tasks back now, and of what a stall line last told. */
  private String blockedKind = "";
  private String toldKind = "";
  /** Since when tasks have been held back without a break, and when a task last started. */
  private Instant waitingSince;
  private Instant lastStart;
  private List<GpuDevice> devices = List.of();
  private final Map<TaskId, Placement> placements = new TreeMap<>();
  /** The learned reservation last told per template, resource and basis, so each change is told once. */
  private final Map<String, Long> toldLearned = new TreeMap<>();

  ConsoleView(PrintStream out, boolean live, boolean color, InstantSource clock) {
    this.out = out;
    this.live = live;
    this.color = color;
    this.clock = clock;
  }

  @Override
  public synchronized void runStarted(RunState state) {
    for (GroupSpec g : state.spec().groups()) {
      groups.add(new GroupLine(g.name()));
    }
    for (TaskRecord r : state.tasks()) {
      groups.get(r.groupIndex()).status(r.spec().id(), TaskStatus.of(r.state()));
    }
    lastStart = clock.instant();
    if (live) {
      redraw = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "berth-console");
        t.setDaemon(true);
        return t;
      });
      redraw.scheduleAtFixedRate(this::draw, 0, 250, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public synchronized void probed(HostSnapshot snapshot) {
    if (!live) {
      tellStall(); // a pass may not follow every probe while nothing changes
    }
    boolean first = devices.isEmpty() && !snapshot.gpus().devices().isEmpty();
    devices = snapshot.gpus().devices();
    if (first && !live) {
      message("gpus: " + String.join(", ", devices.stream().map(d -> d.id() + " " + d.name()
          + (d.simulated() ? " (simulated)" : "")).toList()));
    }
  }

  @Override
  public synchronized void taskEvent(TaskRecord task, TaskEvent event) {
    GroupLine g = groups.get(task.groupIndex());
    if (event instanceof TaskEvent.Launched l) {
      lastStart = clock.instant();
      placements.put(task.spec().id(), l.placement());
      tellLearned(task, l);
    } else if (!task.state().hasProcess()) {
      placements.remove(task.spec().id());
    }
    TaskStatus status = TaskStatus.of(task.state());
    g.status(task.spec().id(), status);
    if (event instanceof TaskEvent.Launched && g.startedAt == null) {
      g.startedAt = event.at();
    }
    if (!event.target().isTerminal()) {
      return;
    }
    if (status != TaskStatus.SUCCEEDED) {
      String reason = task.history().finalReason().orElse(status.name());
      message(paint("31", status.name()) + " " + task.spec().id() + " (" + task.spec().group() + "): " + reason);
    }
    Totals totals = g.totals();
    if (totals.ended() < totals.total()) {
      g.finishedAt = null; // a task of it runs again: the group ends anew, and says so again
    } else if (g.finishedAt == null) { // one line per ending, however many endings come after the last
      g.finishedAt = event.at();
      if (!live) {
        message("group " + g.name + ": " + totals.describe() + " in " + DurationText.format(g.elapsed(event.at())));
      }
    }
  }

  @Override
  public synchronized void decided(Decisions decisions) {
    // The line names what holds tasks back on this machine: resources, not edges or group turns.
    blockedBy = decisions.describeHoldingBack().orElse("");
    blockedKind = decisions.holdingBack().map(ConsoleView::kind).orElse("");
    if (!live) {
      tellStall();
    }
  }

  /**
   * Says once, on a console that is not redrawn, why tasks have waited {@link #STALL} or more with
   * nothing started, and again when what holds them back turns into something else: the figures in
   * the reason change every pass, so a log would otherwise fill with the same wait.
   */
  private void tellStall() {
    Instant now = clock.instant();
    if (blockedBy.isEmpty()) {
      waitingSince = null;
      return;
    }
    if (waitingSince == null) {
      waitingSince = now;
    }
    Instant quietSince = lastStart != null && lastStart.isAfter(waitingSince) ? lastStart : waitingSince;
    Duration quiet = Duration.between(quietSince, now);
    if (quiet.compareTo(STALL) >= 0 && !blockedKind.equals(toldKind)) {
      toldKind = blockedKind;
      message("nothing started for " + DurationText.format(quiet.withNanos(0)) + ": " + blockedBy);
    }
  }

  /** What kind of refusal it is, without its figures: the resource, where, and the rule. */
  private static String kind(Refusal r) {
    return r.resource() + " " + r.device() + " " + r.rule();
  }

  @Override
  public synchronized void runFinished(RunReport report) {
    if (redraw != null) {
      redraw.shutdownNow();
      draw();
    }
  }

  /** The last lines of the standard error of the task's last attempt, as the report carries them. */
  private static String lastAttemptStderr(TaskReport task) {
    if (task.attempts().isEmpty()) {
      return "";
    }
    String tail = task.attempts().get(task.attempts().size() - 1).stderrTail();
    return tail == null ? "" : tail;
  }

  /** Prints the closing summary: status, counts, failures with their logs, and the report's path. */
  synchronized void summary(RunReport report, Path reportFile, Path html) {
    Duration took = Duration.between(report.startedAt(), report.finishedAt());
    String status = report.status().name();
    String color = report.status() == RunStatus.SUCCEEDED ? "32" : report.status() == RunStatus.INTERRUPTED ? "33" : "31";
    out.println(report.run() + ": " + paint(color, status)
        + " - " + report.totals().describe() + " in " + DurationText.format(took));
    for (var g : report.groups()) {
      for (TaskReport task : g.tasks()) {
        if (task.status() == TaskStatus.FAILED || task.status() == TaskStatus.TIMED_OUT
            || task.status() == TaskStatus.UNREACHABLE) {
          out.println("  " + task.status() + " " + task.id() + ": " + task.error() + " (logs: " + task.workdir() + ")");
          lastAttemptStderr(task).lines().forEach(line -> out.println("    | " + line));
        }
      }
    }
    out.println("report: " + html + " (and report.json, report.md, results.csv beside it)");
  }

  /**
   * Stops redrawing the live view and leaves what is drawn on the screen, so that a question can be
   * asked below it; later lines print below both.
   */
  synchronized void holdStill() {
    if (redraw != null) {
      redraw.shutdownNow();
    }
    drawnLines = 0;
  }

  @Override
  public synchronized void close() {
    if (redraw != null) {
      redraw.shutdownNow();
    }
  }

  private void tellLearned(TaskRecord task, TaskEvent.Launched launch) {
    for (Learned l : launch.learned()) {
      String key = task.spec().group() + "\u0000" + task.spec().template() + "\u0000" + l.resource() + "\u0000"
          + (l.raised() ? "" : l.basis());
      Long told = toldLearned.put(key, l.bytes());
      if (told == null || told != l.bytes()) {
        message(task.spec().template() + ": " + l.describe());
      }
    }
  }

  private void message(String line) {
    if (live) {
      erase();
    }
    out.println(line);
    if (live) {
      draw();
    }
  }

  private synchronized void draw() {
    erase();
    Instant now = clock.instant();
    List<String> lines = new ArrayList<>();
    int width = groups.stream().mapToInt(g -> g.name.length()).max().orElse(5);
    for (GroupLine g : groups) {
      lines.add(g.render(width, now));
    }
    for (var d : devices) {
      long reserved = placements.values().stream()
          .filter(p -> p.gpuIndices().contains(d.index()))
          .mapToLong(p -> p.gpuMemoryBytes() / p.gpuIndices().size()).sum();
      lines.add(String.format("%s %s%s: reserved %s, used %s of %s", d.id(), d.name(),
          d.simulated() ? " (simulated)" : "", ByteSize.format(reserved),
          ByteSize.format(d.usedMemoryBytes()),
          ByteSize.format(d.totalMemoryBytes())));
    }
    if (!blockedBy.isEmpty()) {
      lines.add(blockedBy);
    }
    for (String l : lines) {
      out.println(l);
    }
    drawnLines = lines.size();
    out.flush();
  }

  private void erase() {
    for (int i = 0; i < drawnLines; i++) {
      out.print("\033[1A\033[2K");
    }
    drawnLines = 0;
  }

  private String paint(String code, String text) {
    return color ? "\033[" + code + "m" + text + "\033[0m" : text;
  }

  private final class GroupLine {
    final String name;
    /** Every task of the group with its status, counted by the report's rule. */
    private final Map<TaskId, TaskStatus> statuses = new HashMap<>();
    /** The tasks by status, kept as they change: counting them all again at each end made a sweep's run quadratic. */
    private final int[] counts = new int[TaskStatus.values().length];
    Instant startedAt;
    Instant finishedAt;

    GroupLine(String name) {
      this.name = name;
    }

    void status(TaskId task, TaskStatus status) {
      TaskStatus before = statuses.put(task, status);
      if (before != null) {
        counts[before.ordinal()]--;
      }
      counts[status.ordinal()]++;
    }

    Totals totals() {
      return Totals.counted(counts);
    }

    Duration elapsed(Instant now) {
      return startedAt == null ? Duration.ZERO : Duration.between(startedAt, finishedAt != null ? finishedAt : now);
    }

    String render(int width, Instant now) {
      Totals t = totals();
      int bar = 20;
      int filled = t.total() == 0 ? bar : t.ended() * bar / t.total();
      String eta = "";
      if (t.ended() > 0 && t.ended() < t.total() && startedAt != null) {
        long perTask = elapsed(now).toMillis() / t.ended();
        eta = ", ETA " + DurationText.format(Duration.ofMillis(perTask * (t.total() - t.ended())));
      }
      String unsuccessful = t.describeUnsuccessful();
      return String.format(
          "%-" + width + "s [%s%s] %d/%d done, %d running, %s%s",
          name, "#".repeat(filled), "-".repeat(bar - filled), t.ended(), t.total(), t.running(),
          t.unsuccessful() > 0 ? paint("31", unsuccessful) : unsuccessful, eta);
    }
  }
}

package dev.berth.session;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.report.Delivery;
import dev.berth.report.HtmlOptions;
import dev.berth.report.Mailer;
import dev.berth.report.NotifySettings;
import dev.berth.report.Objective;
import dev.berth.report.SmtpKeys;
import dev.berth.report.SmtpSettings;
import dev.berth.report.WebhookNotifier;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.engine.RunListener;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Mails group and run reports and posts webhook events as a run goes on. Mail is sent on its own
 * thread and webhooks are asynchronous, so neither slows the engine; a failure is printed and never
 * fails the run.
 */
final class Notifications implements RunListener, AutoCloseable {

  private final Mailer mailer;
  private final SmtpSettings smtp;
  private final WebhookNotifier webhook;
  private final Objective objective;
  private final RunLayout layout;
  private final InstantSource clock;
  private final Consumer<String> out;
  private final ExecutorService mail = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "berth-mail");
    t.setDaemon(true);
    return t;
  });
  private final List<CompletableFuture<Delivery>> pending = new ArrayList<>();
  /** The groups whose end was announced. */
  private final Set<String> ended = new HashSet<>();
  /** Per group, the first of its tasks that had not ended at the last look (see {@link #allEnded}). */
  private final Map<String, Integer> firstNotEnded = new HashMap<>();
  private RunState state;
  private Instant startedAt;

  private Notifications(Mailer mailer, SmtpSettings smtp, WebhookNotifier webhook, Objective objective, RunLayout layout,
      InstantSource clock, Consumer<String> out) {
    this.mailer = mailer;
    this.smtp = smtp;
    this.webhook = webhook;
    this.objective = objective;
    this.layout = layout;
    this.clock = clock;
    this.out = out;
  }

  /**
   * Builds the notifications a spec asks for.
   *
   * @throws IllegalArgumentException naming the setting when the mail or webhook settings are not usable
   */
  static Notifications of(RunSpec spec, RunLayout layout, InstantSource clock, Consumer<String> out,
      Function<String, String> env) {
    SmtpSettings smtp = SmtpKeys.TABLE.of(spec);
    Mailer mailer = smtp.enable() ? new Mailer(smtp, env, clock) : null;
    WebhookNotifier webhook = NotifySettings.TABLE.of(spec).settings(env).map(WebhookNotifier::create).orElse(null);
    return new Notifications(mailer, smtp, webhook, RunReports.objective(spec), layout, clock, out);
  }

  @Override
  public void runStarted(RunState runState) {
    state = runState;
    startedAt = clock.instant();
  }

  @Override
  public void taskEvent(TaskRecord task, TaskEvent event) {
    if (!event.target().isTerminal()) {
      return;
    }
    if (webhook != null && task.state() != TaskState.SUCCEEDED) {
      RunReport report = report();
      report.groups().stream().flatMap(g -> g.tasks().stream())
          .filter(t -> t.id().equals(task.spec().id().value())).findFirst()
          .ifPresent((TaskReport t) -> track(webhook.taskFailed(report, t)));
    }
    String group = task.spec().group();
    if ((webhook != null || mailer != null) && !ended.contains(group) && allEnded(group)) {
      ended.add(group);
      RunReport report = report();
      if (webhook != null) {
        track(webhook.groupEnded(report, group));
      }
      if (mailer != null && smtp.mailsGroups()) {
        track(CompletableFuture.supplyAsync(() -> mailer.sendGroup(report, group, html()), mail));
      }
    }
  }

  @Override
  public void runFinished(RunReport report) {
    if (webhook != null) {
      track(webhook.runEnded(report));
    }
    if (mailer != null && smtp.mailsRun()) {
      track(CompletableFuture.supplyAsync(() -> mailer.sendRun(report, html()), mail));
    }
  }

  /** Waits a bounded time for mails and webhooks still in flight, printing any that failed. */
  @Override
  public void close() {
    try {
      CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      out.accept("notifications: some were still in flight when Berth stopped");
    }
    mail.shutdownNow();
    try {
      mail.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Whether every task of {@code group} has ended. Asked of the state rather than counted, because a
   * session's groups arrive after the run started, and a resumed run's tasks may have ended before.
   * A task that ended stays ended, so each group's look starts at the first task that had not ended
   * at the last look: a group's looks cost its size in all, not at each end.
   */
  private boolean allEnded(String group) {
    for (GroupSpec g : state.spec().groups()) {
      if (g.name().equals(group)) {
        List<TaskSpec> tasks = g.tasks();
        int next = firstNotEnded.getOrDefault(group, 0);
        while (next < tasks.size() && state.task(tasks.get(next).id()).state().isTerminal()) {
          next++;
        }
        firstNotEnded.put(group, next);
        return next == tasks.size();
      }
    }
    return false;
  }

  private void track(CompletableFuture<Delivery> delivery) {
    pending.add(delivery.whenComplete((d, e) -> {
      if (e != null) {
        out.accept("notification failed: " + e);
      } else if (d.status() == Delivery.Status.FAILED) {
        out.accept("notification failed: " + d.detail());
      }
    }));
  }

  private RunReport report() {
    return RunReport.of(state, startedAt, clock.instant(), false, spec -> layout.taskDir(spec).toString());
  }

  private HtmlOptions html() {
    HtmlOptions options = HtmlOptions.defaults();
    return objective == null ? options : options.withObjective(objective);
  }
}

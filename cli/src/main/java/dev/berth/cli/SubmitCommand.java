package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.cli.args.Parameter;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.settings.Setting;
import dev.berth.spec.SpecException;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * {@code berth submit [task options] -- COMMAND ARGS...}: queues one task in the user's queue on
 * this host and prints its id alone on standard output, as task-spooler's {@code ts} does. The task
 * runs in the folder it was submitted from, with the environment it was submitted with; each task
 * key is an option, read through the spec's key table. The first submit starts the queue's process
 * (see {@link QueueDaemon}).
 */
final class SubmitCommand implements BerthCommand {

  /** Task keys that make no sense for one command typed on the command line, or that have options of their own. */
  private static final List<String> NOT_OPTIONS =
      List.of("id", "command", "matrix", "java", "classpath", "jvm-args", "call", "pool", "params", "env");

  private static final Option NAME = Option.value("--name", "NAME", "A name for the task, shown by berth queue.");

  private static final Option ENV = Option.value("--env", "K=V",
      "An environment variable for the task, over the one it was submitted with. Repeatable.").repeatable();

  private static final Parameter COMMAND =
      Parameter.rest("COMMAND", "The command and its arguments, after --; run as given, not through a shell.");

  /** One option per task key: {@code --gpu-memory 10GiB}, {@code --after 3}. */
  static final List<Option> KEY_OPTIONS = TaskKeys.settings().stream()
      .filter(s -> !NOT_OPTIONS.contains(s.key()))
      .map(SubmitCommand::option)
      .toList();

  /** Variables Berth gives each attempt itself: the submitter's would only hide them. */
  private static final List<String> BERTH_OWN = List.of("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER");

  private final Map<String, String> env;

  /** The command on this process's environment. */
  SubmitCommand() {
    this(System.getenv());
  }

  /** The command on another environment ({@code HOME}, {@code BERTH_HOST_DIR}), for tests. */
  SubmitCommand(Map<String, String> env) {
    this.env = env;
  }

  private static Option option(Setting<?> s) {
    String label = s.key().toUpperCase(Locale.ROOT).replace('-', '_');
    return switch (s.key()) {
      // on the command line a dependency names queue ids only, one per option
      case "after" -> Option.value("--after", "ID", "A task of your queue that must succeed before this one"
          + " starts. Repeatable.").repeatable();
      case "follow" -> Option.value("--follow", "ID", "A task of your queue whose GPU this one runs on once it"
          + " succeeded (as after, plus its device). Repeatable.").repeatable();
      case "targets" -> Option.value("--targets", "INDEX", "A GPU the task may use, by index. Repeatable.")
          .repeatable();
      default -> Option.value("--" + s.key(), label, s.docs() + ".");
    };
  }

  @Override
  public CommandSyntax syntax() {
    CommandSyntax.Builder syntax = CommandSyntax.describedAs("Queue one command in your queue on this host and"
        + " print its id. It runs in this folder with this environment, as soon as the machine has room for it;"
        + " berth queue, logs, wait, cancel and retry take the id.");
    syntax.options(NAME, ENV);
    KEY_OPTIONS.forEach(syntax::options);
    return syntax.parameter(COMMAND).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) throws IOException {
    List<String> command = args.values(COMMAND);
    if (command.isEmpty()) {
      err.println("berth: submit: a command is required: berth submit [options] -- COMMAND ARGS...");
      return ExitCodes.BAD_INPUT;
    }
    Map<String, Object> keys = new LinkedHashMap<>();
    for (Option o : KEY_OPTIONS) {
      List<String> values = args.values(o);
      if (!values.isEmpty()) {
        keys.put(o.name().substring(2), values.size() == 1 ? values.get(0) : values);
      }
    }
    Map<String, String> taskEnv = new TreeMap<>(env);
    taskEnv.keySet().removeIf(k -> k.startsWith("BERTH_") || BERTH_OWN.contains(k));
    for (String kv : args.values(ENV)) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        err.println("berth: --env: '" + kv + "' must be written NAME=VALUE");
        return ExitCodes.BAD_INPUT;
      }
      taskEnv.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    String cwd = System.getProperty("user.dir");
    String name = args.value(NAME);
    QueueFolder queue = QueueFolder.of(env);
    return queue(queue, env, id -> new Submission(id, name, command, cwd, taskEnv, keys, Instant.now()), out, err);
  }

  /**
   * Checks each option's value with its task key's parser, as a spec's value is read. What only the
   * whole task can tell (keys that exclude each other) the queue tells as it takes the task: it is
   * then {@code refused}, with the reason, in {@code berth queue}.
   */
  private static void checkKeys(Submission s) throws SpecException {
    for (Map.Entry<String, Object> e : s.keys().entrySet()) {
      for (Setting<?> setting : TaskKeys.settings()) {
        if (setting.key().equals(e.getKey())) {
          try {
            setting.parse(e.getValue());
          } catch (IllegalArgumentException invalid) {
            throw new SpecException("berth submit", "--" + e.getKey(), invalid.getMessage());
          }
        }
      }
    }
  }

  /**
   * Queues the submission {@code make} builds for the next id: checks it (whole, as the queue will
   * read it, when no queue runs; its options' values alone when one does),
   * writes it whole into the inbox, starts the queue's process (with {@code env}) when none holds the run, and prints
   * the id alone on {@code out}.
   *
   * @return the exit code: {@link ExitCodes#BAD_INPUT} when the task cannot be queued, told on {@code err}
   */
  static int queue(QueueFolder queue, Map<String, String> env, IntFunction<Submission> make, PrintWriter out,
      PrintWriter err) throws IOException {
    try {
      Submission draft = make.apply(Integer.MAX_VALUE);
      for (String dep : draft.dependencies()) {
        if (queue.submission(dep).isEmpty()) {
          throw new SpecException("berth submit", "--after", "'" + dep + "' is not a task of your queue ("
              + queue.inbox() + "); give the id berth submit printed");
        }
      }
      if (queue.live()) {
        checkKeys(draft); // the live queue reads the task whole as it takes it: the prompt comes back sooner
      } else {
        QueueSpecs.of(queue).task(draft); // the queue to start reads its settings file too
      }
    } catch (SpecException e) {
      err.println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    int id = queue.locked(() -> {
      int next = queue.nextId();
      queue.add(make.apply(next));
      queue.ensureRunning(env);
      return next;
    });
    out.println(id);
    out.flush();
    return ExitCodes.OK;
  }
}

package dev.berth.slurm;

import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The signal a job's task gets before its time limit ({@code slurm.signal}, written
 * {@code [SIG@]DURATION} such as {@code 5m} or {@code TERM@90s}), asked of Slurm as
 * {@code --signal=B:SIG@SECONDS}: sent to the batch script, which passes it on to the task, so the
 * task can save a checkpoint before it is killed. Slurm takes at most 65535 seconds and sends the
 * signal up to a minute late, as it checks limits about every 30 s.
 *
 * @param name the signal's name without {@code SIG}, e.g. {@code USR1}
 * @param before how long before the time limit, in whole seconds
 */
public record JobSignal(String name, long before) {

  /** The signal sent when the setting names none: Python's and most tools' "checkpoint now" convention. */
  public static final String DEFAULT_NAME = "USR1";

  private static final Pattern WRITTEN =
      Pattern.compile("(?:(?:SIG)?(USR1|USR2|TERM|INT|HUP|QUIT|ALRM|CONT|URG|WINCH)@)?([^@]+)");
  private static final long MOST_SECONDS = 65_535;

  /**
   * {@code text} parsed; empty for the empty text.
   *
   * @throws IllegalArgumentException naming {@code slurm.signal} and the rule it breaks
   */
  public static Optional<JobSignal> parse(String text) {
    if (text.isBlank()) {
      return Optional.empty();
    }
    Matcher m = WRITTEN.matcher(text.strip().toUpperCase(Locale.ROOT));
    String rule = "slurm.signal must be [SIG@]DURATION, such as 5m or USR1@5m, with SIG one of USR1, USR2, TERM,"
        + " INT, HUP, QUIT, ALRM, CONT, URG or WINCH and DURATION from 1s to 18h12m15s, but was '" + text + "'";
    if (!m.matches()) {
      throw new IllegalArgumentException(rule);
    }
    Duration before;
    try {
      before = Parsers.DURATION.parse(m.group(2).toLowerCase(Locale.ROOT));
    } catch (InvalidValue e) {
      throw new IllegalArgumentException(rule, e);
    }
    long seconds = before.getSeconds() + (before.getNano() > 0 ? 1 : 0);
    if (seconds < 1 || seconds > MOST_SECONDS) {
      throw new IllegalArgumentException(rule);
    }
    return Optional.of(new JobSignal(m.group(1) == null ? DEFAULT_NAME : m.group(1), seconds));
  }

  /** The sbatch option: to the batch script ({@code B:}), which passes it on to the task. */
  public String option() {
    return "--signal=B:" + name + "@" + before;
  }
}

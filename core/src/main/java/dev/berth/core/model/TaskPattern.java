package dev.berth.core.model;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A shell-style pattern over task ids: {@code *} matches any text, {@code ?} one character and
 * {@code [abc]} one of the listed characters; anything else matches itself.
 */
public final class TaskPattern {

  private final String text;
  private final Pattern regex;

  private TaskPattern(String text) {
    this.text = text;
    this.regex = Pattern.compile(toRegex(text));
  }

  /** Compiles a pattern. */
  public static TaskPattern of(String glob) {
    return new TaskPattern(glob);
  }

  /** Whether the text has any glob character, i.e. may match more than one id. */
  public static boolean isGlob(String text) {
    return text.chars().anyMatch(c -> c == '*' || c == '?' || c == '[');
  }

  /** Whether the id matches. */
  public boolean matches(String id) {
    return regex.matcher(id).matches();
  }

  /**
   * Whether {@code selector}, as {@code berth cancel} takes it, names {@code task}: {@code group:NAME}
   * names the group's tasks, anything else is a pattern over task ids.
   */
  public static boolean selects(String selector, TaskSpec task) {
    if (selector.startsWith("group:")) {
      return task.group().equals(selector.substring("group:".length()));
    }
    return of(selector).matches(task.id().value());
  }

  /**
   * The first of {@code selectors} that names none of {@code tasks}, as {@link #selects} reads them;
   * empty when each names one at least.
   */
  public static Optional<String> matchingNone(List<String> selectors, List<TaskSpec> tasks) {
    return selectors.stream().filter(s -> tasks.stream().noneMatch(t -> selects(s, t))).findFirst();
  }

  @Override
  public String toString() {
    return text;
  }

  private static String toRegex(String glob) {
    StringBuilder re = new StringBuilder();
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      int end = c == '[' ? glob.indexOf(']', i + 1) : -1;
      if (c == '*') {
        re.append(".*");
      } else if (c == '?') {
        re.append('.');
      } else if (end > i + 1) {
        re.append('[');
        for (char k : glob.substring(i + 1, end).toCharArray()) {
          re.append(k == '-' || Character.isLetterOrDigit(k) ? String.valueOf(k) : "\\" + k);
        }
        re.append(']');
        i = end;
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return re.toString();
  }
}

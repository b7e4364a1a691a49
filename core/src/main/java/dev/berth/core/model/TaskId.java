package dev.berth.core.model;

/**
 * A task's id, unique within a run. It names the task's working folder, so it is restricted to
 * letters, digits and {@code . _ - + = @ ,}, may not be {@code .} or {@code ..}, and holds at most
 * {@link Names#MAX_LENGTH} characters.
 */
public record TaskId(String value) implements Comparable<TaskId> {

  /** Validates the id. */
  public TaskId {
    if (value == null || value.length() > Names.MAX_LENGTH || !allowed(value)
        || value.equals(".") || value.equals("..")) {
      throw new IllegalArgumentException("task id '" + value + "' must match [A-Za-z0-9._+=@,-]+, not be . or ..,"
          + " and be at most " + Names.MAX_LENGTH + " characters (it names a folder)");
    }
  }

  /**
   * Whether {@code value} is one or more of {@code [A-Za-z0-9._+=@,-]}: looked at character by
   * character, as a sweep's 100,000 ids are checked as it is read and again as it resumes.
   */
  private static boolean allowed(String value) {
    if (value.isEmpty()) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
          || c == '.' || c == '_' || c == '+' || c == '=' || c == '@' || c == ',' || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** Shorthand for {@code new TaskId(value)}. */
  public static TaskId of(String value) {
    return new TaskId(value);
  }

  /** This id as it appears in a variable name such as {@code BERTH_DEP_<ID>_DIR}. */
  public String envName() {
    return envName(value);
  }

  /**
   * Text as it appears in a variable name: upper case, characters other than letters and digits as _.
   * Written out rather than as a pattern: a task after a glob of thousands gets as many variables.
   */
  public static String envName(String text) {
    String upper = text.toUpperCase(java.util.Locale.ROOT);
    StringBuilder name = new StringBuilder(upper.length());
    upper.codePoints().forEach(c -> name.append(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ? (char) c : '_'));
    return name.toString();
  }

  @Override
  public int compareTo(TaskId other) {
    return value.compareTo(other.value);
  }

  // Written out: a record's own equals and hashCode are made at their first call, from method
  // handles, which was a tenth of reading a spec in a fresh JVM.
  @Override
  public boolean equals(Object other) {
    return other instanceof TaskId id && value.equals(id.value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return value;
  }
}

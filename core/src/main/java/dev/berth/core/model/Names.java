package dev.berth.core.model;

import java.util.regex.Pattern;

/**
 * The one rule for the names of runs, groups and sessions, which name folders: letters, digits,
 * {@code . _ -}, and neither {@code .} nor {@code ..}. The spec reader, the Java builders and the
 * model all check names here.
 */
public final class Names {

  /** The characters a name may hold, as users read the rule. */
  public static final String CHARACTERS = "[A-Za-z0-9._-]+";

  /**
   * The longest name, id or folder name: most file systems hold 255 bytes in a folder's name, and
   * every character a name or a task id may use is one byte. Berth adds nothing to these names.
   */
  public static final int MAX_LENGTH = 255;

  private static final Pattern NAME = Pattern.compile(CHARACTERS);

  private Names() {}

  /** Whether {@code name} is a valid run, group or session name. */
  public static boolean valid(String name) {
    return name != null && name.length() <= MAX_LENGTH && NAME.matcher(name).matches() && !name.equals(".")
        && !name.equals("..");
  }

  /**
   * Returns {@code name} when it is valid.
   *
   * @param kind what is named, e.g. {@code run} or {@code group}, for the message
   * @throws IllegalArgumentException naming the rule otherwise
   */
  public static String check(String kind, String name) {
    if (!valid(name)) {
      throw new IllegalArgumentException(kind + " name '" + name + "' must match " + CHARACTERS
          + " (and not be . or ..), at most " + MAX_LENGTH + " characters");
    }
    return name;
  }
}

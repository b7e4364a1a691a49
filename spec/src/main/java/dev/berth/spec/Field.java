package dev.berth.spec;

/**
 * A place the user wrote something: the file and the path inside it, such as
 * {@code groups[1].tasks[0].memory}. Every problem is reported against one.
 */
record Field(String file, String path) {

  /** The top of a file. */
  static Field root(String file) {
    return new Field(file, "");
  }

  /** The value under {@code key} in the mapping at this field. */
  Field key(String key) {
    return new Field(file, path.isEmpty() ? key : path + "." + key);
  }

  /** The item at {@code index} in the list at this field. */
  Field index(int index) {
    return new Field(file, path + "[" + index + "]");
  }

  /** A problem with the value at this field. */
  SpecException problem(String rule) {
    return new SpecException(file, path, rule);
  }

  @Override
  public String toString() {
    return path;
  }
}

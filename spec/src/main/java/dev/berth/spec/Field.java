package dev.berth.spec;

import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.ValueParser;

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

  /** The place {@code path} inside the value at this field, e.g. {@code [1]} or {@code tasks[0]}. */
  Field at(String path) {
    return new Field(file, InvalidValue.join(this.path, path));
  }

  /** {@code node}, written at this field, parsed; a problem is placed where inside the value it lies. */
  <T> T read(ValueParser<T> parser, YamlNode node) throws SpecException {
    try {
      return parser.parse(node.asWritten());
    } catch (InvalidValue e) {
      throw problem(e);
    }
  }

  /** A problem found inside the value at this field. */
  SpecException problem(InvalidValue e) {
    return at(e.path()).problem(e.rule());
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

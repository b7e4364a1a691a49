package dev.berth.task.worker;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/** Tells an out-of-memory failure from other failures, and renders a throwable for Berth. */
final class Failures {

  /**
   * Texts that mark running out of (device) memory in class names or messages. Native libraries
   * wrap CUDA's errors in their own exception types, so the text is the only reliable sign.
   */
  static final List<String> OOM_MARKERS = List.of("CUDA out of memory", "OutOfMemoryError", "CUBLAS_STATUS_ALLOC_FAILED");

  private Failures() {}

  /**
   * The out-of-memory error behind a failure in the train stage, looking through its causes, or
   * null when the failure is something else.
   */
  static Throwable trainOom(Throwable thrown) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable t = thrown; t != null && seen.add(t); t = t.getCause()) {
      if (t instanceof OutOfMemoryError || marked(t.getMessage())) {
        return t;
      }
      for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
        if (marked(c.getName())) {
          return t;
        }
      }
    }
    return null;
  }

  private static boolean marked(String text) {
    return text != null && OOM_MARKERS.stream().anyMatch(text::contains);
  }

  /** The one-line message: the class name and the message. */
  static String message(Throwable thrown) {
    return thrown.toString();
  }

  /** The full stack trace, with causes. */
  static String traceback(Throwable thrown) {
    StringWriter text = new StringWriter();
    thrown.printStackTrace(new PrintWriter(text));
    return text.toString();
  }
}

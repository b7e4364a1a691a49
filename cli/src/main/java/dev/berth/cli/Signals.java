package dev.berth.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT, SIGTERM and SIGHUP while a run goes on: the first one interrupts the run (which then ends
 * as interrupted, its report written, resumable) instead of the JVM's default of running shutdown
 * hooks and exiting at once; the exit code is then 128 + the signal's number. A later signal only
 * says that Berth is stopping: running task trees get SIGKILL 5 s after SIGTERM, so the stop is
 * bounded. The JVM offers no public API to handle signals, hence {@code sun.misc.Signal}
 * (module {@code jdk.unsupported}). Closing restores the handlers that were there before.
 */
final class Signals implements AutoCloseable {

  /** A signal that arrived: its name (without {@code SIG}) and number. */
  record Caught(String name, int number) {
    /** {@code SIGTERM}. */
    String fullName() {
      return "SIG" + name;
    }
  }

  private static final List<String> NAMES = List.of("INT", "TERM", "HUP");

  private final AtomicReference<Caught> first = new AtomicReference<>();
  private final List<Signal> signals = new ArrayList<>();
  private final List<SignalHandler> previous = new ArrayList<>();

  private Signals() {}

  /**
   * Handles SIGINT, SIGTERM and SIGHUP from now on until {@link #close()}: the first calls
   * {@code onFirst}, on the JVM's signal thread; later ones call {@code onLater}. A signal this JVM
   * cannot handle (SIGHUP under {@code nohup}, or a JVM run with {@code -Xrs}) is left as it is.
   */
  static Signals handle(Consumer<Caught> onFirst, Consumer<Caught> onLater) {
    Signals s = new Signals();
    for (String name : NAMES) {
      Signal signal = new Signal(name);
      try {
        SignalHandler before = Signal.handle(signal, sig -> {
          Caught caught = new Caught(sig.getName(), sig.getNumber());
          if (s.first.compareAndSet(null, caught)) {
            onFirst.accept(caught);
          } else {
            onLater.accept(caught);
          }
        });
        if (before == SignalHandler.SIG_IGN) {
          Signal.handle(signal, before); // ignored when Berth started (nohup): stays ignored
          continue;
        }
        s.signals.add(signal);
        s.previous.add(before);
      } catch (IllegalArgumentException notHandled) {
        // the JVM keeps this signal for itself (-Xrs) or the system has no such signal
      }
    }
    return s;
  }

  /** The first signal that arrived, if any did. */
  Optional<Caught> first() {
    return Optional.ofNullable(first.get());
  }

  @Override
  public void close() {
    for (int i = 0; i < signals.size(); i++) {
      Signal.handle(signals.get(i), previous.get(i));
    }
  }
}

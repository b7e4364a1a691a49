package dev.berth.client;

import dev.berth.runtime.engine.RunListener;

/** The listener that ignores everything, by a name tests read well with. */
final class RunListenerNone {

  static final RunListener INSTANCE = RunListener.NONE;

  private RunListenerNone() {}
}

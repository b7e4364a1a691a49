package dev.berth.session;

/** What a run resumed with a spec other than the one it started with does (a spec that grows by submissions aside). */
public enum SpecChange {
  /** Refuse to open the run, naming every difference. */
  REFUSE,
  /** Keep running the spec the run started with. */
  STORED,
  /**
   * Run the new spec: tasks that kept their id keep their history (finished ones do not run
   * again), new tasks run, removed tasks are dropped. The old journal is kept beside the new one.
   */
  NEW
}

package dev.berth.host;

/** Whether a process still runs: the pid exists and was started at the same time (so it was not reused). */
@FunctionalInterface
public interface ProcessLiveness {

  /** Whether process {@code pid}, started at {@code start} (clock ticks after boot), is alive. */
  boolean alive(long pid, long start);
}

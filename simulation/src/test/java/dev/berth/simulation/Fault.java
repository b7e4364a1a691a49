package dev.berth.simulation;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * The kinds of fault a seed may inject. Each can be switched off, so that one whose known defect is
 * not fixed yet stays out of the seeds that must pass; {@link #ALL} is every kind.
 */
enum Fault {
  /** A second or third run starts while the first runs, sharing the devices and the host ledger. */
  SECOND_RUN,
  /** A Berth is killed with SIGKILL: no cleanup, its task processes run on. */
  KILL9,
  /** A Berth is stopped by SIGTERM or SIGINT and stops gracefully. */
  SIGTERM,
  /** A stopped or killed run is resumed from its journal. */
  RESUME,
  /** Tasks leave background children running when they exit. */
  CHILDREN,
  /** Two-stage tasks run out of GPU memory in their first train call. */
  TRAIN_GPU_OOM,
  /** The host ledger's files are deleted while runs use them. */
  LEDGER_DELETED,
  /** The host ledger is busy (locked by another process) for a while. */
  LEDGER_BUSY,
  /** One journal write fails with an I/O error. */
  JOURNAL_WRITE_FAILS,
  /** The disk fills: every journal write fails until space is freed. */
  DISK_FULL;

  /** Every kind. */
  static final Set<Fault> ALL = EnumSet.allOf(Fault.class);

  /** Kinds named in a comma-separated list, {@code all}, or {@code none}. */
  static Set<Fault> parse(String text) {
    if (text.isBlank() || text.equals("none")) {
      return EnumSet.noneOf(Fault.class);
    }
    if (text.equals("all")) {
      return EnumSet.allOf(Fault.class);
    }
    Set<Fault> set = EnumSet.noneOf(Fault.class);
    Arrays.stream(text.split(",")).map(String::strip).map(s -> Fault.valueOf(s.toUpperCase().replace('-', '_')))
        .forEach(set::add);
    return set;
  }

  /** The list {@link #parse} reads back. */
  static String names(Set<Fault> faults) {
    return faults.isEmpty() ? "none" : faults.equals(ALL) ? "all"
        : String.join(",", faults.stream().map(f -> f.name().toLowerCase().replace('_', '-')).toList());
  }
}

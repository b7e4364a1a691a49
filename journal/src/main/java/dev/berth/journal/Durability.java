package dev.berth.journal;

/**
 * What a flushed write survives: how hard a {@link SqliteJournal} pushes each commit to the disk.
 * Either way a flushed event survives the scheduler being killed ({@code kill -9}), because SQLite
 * has handed the commit to the operating system before {@code flush()} returns.
 */
public enum Durability {
  /**
   * SQLite {@code synchronous=FULL}: every commit is synced to the disk before it returns, so a
   * flushed write also survives an operating-system crash or a power loss. The default.
   */
  FULL,
  /**
   * SQLite {@code synchronous=NORMAL}: commits are synced only at checkpoints, so a crash of the
   * operating system or a power loss may lose the last flushes (never corrupting the file). For
   * slow disks where a sync per flush costs too much.
   */
  NORMAL
}

/**
 * The durable journal of a run in one SQLite file: {@link dev.berth.journal.SqliteJournal} writes
 * it (the {@link dev.berth.spi.Journal} of the SPI), {@link dev.berth.journal.JournalReader} reads
 * it from another process, {@link dev.berth.journal.EventCodec} and {@link dev.berth.journal.SpecCodec}
 * turn events and specs into canonical JSON, and {@link dev.berth.journal.SpecDiff} says how two
 * specs differ. See {@code docs/journal.md}.
 */
package dev.berth.journal;

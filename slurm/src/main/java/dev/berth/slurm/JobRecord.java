package dev.berth.slurm;

import dev.berth.os.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the job-id file of an attempt holds, so that a later Berth can track the job again: the job id
 * on the first line, then {@code slurm-log=<file>} (where Slurm writes its own messages about the job)
 * and {@code slurm-log-offset=<bytes>} (that file's size at submission, so a memory-kill message of an
 * earlier attempt does not count). Files written before the last two lines existed hold only the id.
 *
 * @param job the job
 * @param slurmLog the file with Slurm's messages about the job, when recorded
 * @param slurmLogOffset its size at submission, when recorded
 */
record JobRecord(SlurmJobId job, Optional<Path> slurmLog, OptionalLong slurmLogOffset) {

  private static final String LOG = "slurm-log=";
  private static final String OFFSET = "slurm-log-offset=";

  /** Where the record of attempt {@code attempt} in the task folder {@code workdir} is kept. */
  static Path file(Path workdir, int attempt) {
    return workdir.toAbsolutePath().resolve("berth-slurm-job." + attempt);
  }

  /** The file's text. */
  String format() {
    StringBuilder s = new StringBuilder(job.value()).append('\n');
    slurmLogOffset.ifPresent(o -> s.append(OFFSET).append(o).append('\n'));
    slurmLog.ifPresent(l -> s.append(LOG).append(l).append('\n'));
    return s.toString();
  }

  /** Parses the text; empty when the first line is not a job id. Unknown lines are skipped. */
  static Optional<JobRecord> parse(String text) {
    List<String> lines = text.lines().toList();
    if (lines.isEmpty()) {
      return Optional.empty();
    }
    SlurmJobId job;
    try {
      job = SlurmJobId.of(lines.get(0).strip());
    } catch (IllegalArgumentException notAnId) {
      return Optional.empty();
    }
    Optional<Path> log = Optional.empty();
    OptionalLong offset = OptionalLong.empty();
    for (String line : lines.subList(1, lines.size())) {
      if (line.startsWith(LOG) && line.length() > LOG.length()) {
        try {
          log = Optional.of(Path.of(line.substring(LOG.length())));
        } catch (InvalidPathException skipped) {
          // the attempt's own error file stands in
        }
      } else if (line.startsWith(OFFSET)) {
        try {
          offset = OptionalLong.of(Long.parseLong(line.substring(OFFSET.length()).strip()));
        } catch (NumberFormatException skipped) {
          // an unreadable offset is as good as none
        }
      }
    }
    return Optional.of(new JobRecord(job, log, offset));
  }

  /** Writes the record to {@code file}, whole or not at all: through a temporary file and a rename. */
  void write(Path file) throws IOException {
    AtomicFiles.write(file, format().getBytes(StandardCharsets.UTF_8));
  }

  /** Reads {@code file}; empty when it is missing, unreadable or holds no job id. */
  static Optional<JobRecord> read(Path file) {
    try {
      return parse(Files.readString(file));
    } catch (IOException missing) {
      return Optional.empty();
    }
  }
}

package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobRecordTest {

  @TempDir Path dir;

  @Test
  void aRecordReadsBackAsWritten() throws Exception {
    JobRecord record = new JobRecord(SlurmJobId.of("23_1"), Optional.of(Path.of("/shared/a/slurm-1.log")),
        OptionalLong.of(1234));

    assertThat(record.format()).isEqualTo("23_1\nslurm-log-offset=1234\nslurm-log=/shared/a/slurm-1.log\n");
    assertThat(JobRecord.parse(record.format())).contains(record);
    record.write(dir.resolve("berth-slurm-job.1"));
    assertThat(JobRecord.read(dir.resolve("berth-slurm-job.1"))).contains(record);
    assertThat(dir.resolve("berth-slurm-job.1.tmp")).doesNotExist();
  }

  @Test
  void anOldFileWithOnlyTheJobIdStillReads() {
    assertThat(JobRecord.parse("27\n")).contains(new JobRecord(SlurmJobId.of("27"), Optional.empty(), OptionalLong.empty()));
  }

  @Test
  void unknownAndBrokenLinesAreSkipped() {
    assertThat(JobRecord.parse("27\nsomething-new=1\nslurm-log-offset=x\n"))
        .contains(new JobRecord(SlurmJobId.of("27"), Optional.empty(), OptionalLong.empty()));
  }

  @Test
  void aFileWithoutAJobIdOrNoFileAtAllIsNoRecord() {
    assertThat(JobRecord.parse("")).isEmpty();
    assertThat(JobRecord.parse("Submitted batch job 27\n")).isEmpty();
    assertThat(JobRecord.read(dir.resolve("berth-slurm-job.1"))).isEmpty();
  }
}

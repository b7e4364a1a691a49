package dev.berth.slurm;

import static dev.berth.slurm.Recordings.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SlurmExitTest {

  @Test
  void aRawWaitStatusHoldsTheCodeInItsSecondByteAndTheSignalInItsFirst() {
    assertThat(SlurmExit.fromWaitStatus(768)).isEqualTo(new SlurmExit(3, 0));
    assertThat(SlurmExit.fromWaitStatus(9)).isEqualTo(new SlurmExit(0, 9));
    assertThat(SlurmExit.fromWaitStatus(35328)).isEqualTo(new SlurmExit(138, 0));
  }

  @Test
  void theCodeAndSignalFormIsParsed() {
    assertThat(SlurmExit.parse("3:0")).isEqualTo(new SlurmExit(3, 0));
    assertThat(SlurmExit.parse("0:15")).isEqualTo(new SlurmExit(0, 15));
    assertThat(SlurmExit.parse("7")).isEqualTo(new SlurmExit(7, 0));
    assertThatThrownBy(() -> SlurmExit.parse("x:y")).hasMessageContaining("is not an exit code");
  }

  @Test
  void aSignalBecomes128PlusItsNumberLikeALocalProcess() {
    assertThat(new SlurmExit(0, 9).asExitCode()).isEqualTo(137);
    assertThat(new SlurmExit(0, 15).asExitCode()).isEqualTo(143);
    assertThat(new SlurmExit(3, 0).asExitCode()).isEqualTo(3);
    assertThat(new SlurmExit(3, 0)).hasToString("3:0");
  }

  @Test
  void scontrolReportsTheSameExitsAsSqueueWhileSacctDropsTheSignalOfACancellation() {
    Map<String, SlurmExit> squeue = new HashMap<>();
    SqueueOutput.parse(read("squeue-finished.txt")).forEach(r -> squeue.put(r.id().value(), r.exit()));
    Matcher m = Pattern.compile("JobId=(\\S+) .* ExitCode=(\\S+) ").matcher(read("scontrol-finished.txt"));
    int jobs = 0;
    while (m.find()) {
      assertThat(SlurmExit.parse(m.group(2))).as("job " + m.group(1)).isEqualTo(squeue.get(m.group(1)));
      jobs++;
    }

    assertThat(jobs).isEqualTo(7);
    assertThat(squeue.get("16")).isEqualTo(new SlurmExit(0, 15));
    assertThat(SacctOutput.parse(read("sacct-finished.txt"))).filteredOn(r -> r.id().equals("16"))
        .singleElement().extracting(SacctOutput.Row::exit).isEqualTo(new SlurmExit(0, 0));
  }
}

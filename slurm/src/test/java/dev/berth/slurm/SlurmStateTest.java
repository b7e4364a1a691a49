package dev.berth.slurm;

import static dev.berth.slurm.Recordings.read;
import static dev.berth.slurm.SlurmOutcome.CANCELLED;
import static dev.berth.slurm.SlurmOutcome.FAILED;
import static dev.berth.slurm.SlurmOutcome.HOST_OOM;
import static dev.berth.slurm.SlurmOutcome.INFRASTRUCTURE;
import static dev.berth.slurm.SlurmOutcome.RUNNING;
import static dev.berth.slurm.SlurmOutcome.SUCCEEDED;
import static dev.berth.slurm.SlurmOutcome.TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlurmStateTest {

  /** The table, written out again: every state Slurm 22.05 documents and what it means for Berth. */
  private static final Map<SlurmState, SlurmOutcome> EXPECTED = new EnumMap<>(Map.ofEntries(
      Map.entry(SlurmState.PENDING, RUNNING),
      Map.entry(SlurmState.CONFIGURING, RUNNING),
      Map.entry(SlurmState.RUNNING, RUNNING),
      Map.entry(SlurmState.COMPLETING, RUNNING),
      Map.entry(SlurmState.COMPLETED, SUCCEEDED),
      Map.entry(SlurmState.FAILED, FAILED),
      Map.entry(SlurmState.OUT_OF_MEMORY, HOST_OOM),
      Map.entry(SlurmState.TIMEOUT, TIMED_OUT),
      Map.entry(SlurmState.CANCELLED, CANCELLED),
      Map.entry(SlurmState.NODE_FAIL, INFRASTRUCTURE),
      Map.entry(SlurmState.PREEMPTED, INFRASTRUCTURE),
      Map.entry(SlurmState.BOOT_FAIL, INFRASTRUCTURE),
      Map.entry(SlurmState.DEADLINE, TIMED_OUT),
      Map.entry(SlurmState.SUSPENDED, RUNNING),
      Map.entry(SlurmState.STOPPED, RUNNING),
      Map.entry(SlurmState.REQUEUED, RUNNING),
      Map.entry(SlurmState.REQUEUE_HOLD, RUNNING),
      Map.entry(SlurmState.REQUEUE_FED, RUNNING),
      Map.entry(SlurmState.SPECIAL_EXIT, RUNNING),
      Map.entry(SlurmState.RESV_DEL_HOLD, RUNNING),
      Map.entry(SlurmState.RESIZING, RUNNING),
      Map.entry(SlurmState.REVOKED, RUNNING),
      Map.entry(SlurmState.SIGNALING, RUNNING),
      Map.entry(SlurmState.STAGE_OUT, RUNNING),
      Map.entry(SlurmState.UNKNOWN, RUNNING)));

  @Test
  void everyStateHasTheOutcomeOfTheTable() {
    assertThat(EXPECTED.keySet()).isEqualTo(EnumSet.allOf(SlurmState.class));
    for (SlurmState state : SlurmState.values()) {
      assertThat(state.outcome()).as(state.name()).isEqualTo(EXPECTED.get(state));
      assertThat(state.isTerminal()).as(state.name()).isEqualTo(EXPECTED.get(state) != RUNNING);
    }
  }

  @Test
  void everyOutcomeButRunningIsTerminalAndEveryOneButANeverMetDependencyIsReachedBySomeState() {
    // UPSTREAM_NOT_MET is a CANCELLED job whose reason says so; see SlurmEndingsTest
    assertThat(EnumSet.copyOf(EXPECTED.values()))
        .isEqualTo(EnumSet.complementOf(EnumSet.of(SlurmOutcome.UPSTREAM_NOT_MET)));
    for (SlurmOutcome outcome : SlurmOutcome.values()) {
      assertThat(outcome.isTerminal()).as(outcome.name()).isEqualTo(outcome != RUNNING);
    }
  }

  @Test
  void everyStateParsesFromItsName() {
    for (SlurmState state : SlurmState.values()) {
      assertThat(SlurmState.parse(state.name())).isEqualTo(state);
    }
  }

  @Test
  void sacctsDecorationsAndOtherCasesAreUnderstood() {
    assertThat(SlurmState.parse("CANCELLED by 0")).isEqualTo(SlurmState.CANCELLED);
    assertThat(SlurmState.parse("CANCELLED+")).isEqualTo(SlurmState.CANCELLED);
    assertThat(SlurmState.parse(" running ")).isEqualTo(SlurmState.RUNNING);
  }

  @Test
  void anUnknownStateKeepsTheJobTracked() {
    assertThat(SlurmState.parse("LAUNCHING_ON_MARS")).isEqualTo(SlurmState.UNKNOWN);
    assertThat(SlurmState.parse("")).isEqualTo(SlurmState.UNKNOWN);
    assertThat(SlurmState.parse(null)).isEqualTo(SlurmState.UNKNOWN);
    assertThat(SlurmState.UNKNOWN.isTerminal()).isFalse();
  }

  @Test
  void everyStateInTheRecordingsIsKnown() {
    for (String file : List.of("squeue-running.txt", "squeue-finished.txt", "squeue-array-running.txt",
        "squeue-timeout.txt")) {
      assertThat(SqueueOutput.parse(read(file))).as(file).allSatisfy(r -> assertThat(r.state()).isNotEqualTo(SlurmState.UNKNOWN));
    }
    for (String file : List.of("sacct-finished.txt", "sacct-steps.txt", "sacct-timeout.txt")) {
      assertThat(SacctOutput.parse(read(file))).as(file).allSatisfy(r -> assertThat(r.state()).isNotEqualTo(SlurmState.UNKNOWN));
    }
  }
}

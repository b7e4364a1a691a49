package dev.berth.slurm;

import static dev.berth.slurm.Recordings.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.MeasuredUsage;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** What sacct keeps of array elements, on recorded output (see the recordings' README, jobs 3229 to 3234). */
class SacctRecordsTest {

  private static SacctRecords recorded(String name) {
    return SacctRecords.of(SacctOutput.parse(read(name)));
  }

  private static SlurmJobId id(String value) {
    return SlurmJobId.of(value);
  }

  @Test
  void elementsFoldedIntoTheBaseRecordTakeItsRowAndCancelledOnesAreGaps() {
    SacctRecords records = recorded("sacct-array-pending-cancelled.txt");

    assertThat(records.row(id("3229_0"))).map(SacctOutput.Row::state).contains(SlurmState.COMPLETED);
    for (String pending : new String[] {"3229_1", "3229_4", "3229_5"}) {
      assertThat(records.row(id(pending))).map(SacctOutput.Row::state).contains(SlurmState.PENDING);
      assertThat(records.droppedWhilePending(id(pending))).isFalse();
    }
    assertThat(records.droppedWhilePending(id("3229_2"))).isTrue();
    assertThat(records.droppedWhilePending(id("3229_3"))).isTrue();
  }

  @Test
  void onceTheArrayEndedTheCancelledElementsAreStillGaps() {
    SacctRecords records = recorded("sacct-array-pending-cancelled-finished.txt");

    assertThat(records.row(id("3229_5"))).map(SacctOutput.Row::state).contains(SlurmState.COMPLETED);
    assertThat(records.droppedWhilePending(id("3229_3"))).isTrue();
    assertThat(records.droppedWhilePending(id("3229_4"))).isFalse();
  }

  @Test
  void whileSacctLagsAndListsNothingOfTheArrayNothingIsConcluded() {
    SacctRecords records = recorded("sacct-array-pending-cancelled-lagging.txt");

    assertThat(records.row(id("3229_2"))).isEmpty();
    assertThat(records.droppedWhilePending(id("3229_2"))).isFalse();
  }

  @Test
  void anArrayWhoseEveryElementWasCancelledWhilePendingKeepsOnlyItsOwnRecord() {
    SacctRecords records = recorded("sacct-array-all-pending-cancelled.txt");

    assertThat(records.droppedWhilePending(id("3231_0"))).isTrue();
    assertThat(records.droppedWhilePending(id("3231"))).as("not an element").isFalse();
  }

  @Test
  void aWholeArrayCancelledWithScancelLeavesItsElementsInTheBaseRecordAsCancelled() {
    SacctRecords records = recorded("sacct-array-whole-cancelled.txt");

    assertThat(records.row(id("3230_2"))).hasValueSatisfying(r -> {
      assertThat(r.state()).isEqualTo(SlurmState.CANCELLED);
      assertThat(r.stateText()).isEqualTo("CANCELLED by 0");
    });
  }

  @Test
  void rangesListSingleIndicesAndSpans() {
    assertThat(SacctRecords.indices("1,4-5")).containsExactly(1, 4, 5);
    assertThat(SacctRecords.indices("0-3")).containsExactly(0, 1, 2, 3);
  }

  @Test
  void squeueWithArrayListsNeitherCancelledPendingElementNorAnyRangeButTheBaseRecordOfAnEmptiedArray() {
    assertThat(SqueueOutput.parse(read("squeue-array-pending-cancelled.txt"))).extracting(r -> r.id().value())
        .containsExactly("3229_1", "3229_4", "3229_5", "3229_0");
    assertThat(SqueueOutput.parse(read("squeue-array-all-pending-cancelled.txt"))).singleElement()
        .satisfies(r -> {
          assertThat(r.id()).isEqualTo(id("3231"));
          assertThat(r.state()).isEqualTo(SlurmState.CANCELLED);
        });
  }

  @Test
  void berthStatusShowsAnElementCancelledWhilePendingAsCancelled() {
    assertThat(SlurmJobs.fromSacct(read("sacct-array-pending-cancelled.txt"), java.util.List.of("3229_1", "3229_2")))
        .containsEntry("3229_1", "PENDING").containsEntry("3229_2", "CANCELLED");
  }

  @Test
  void aJobUsedItsStepsLargestMaxRssAndItsOwnTotalCpuWhichAreExact() {
    SacctRecords records = recorded("sacct-usage.txt");

    assertThat(records.hasSteps(id("60"))).isTrue();
    assertThat(records.usage(id("60"))).isEqualTo(new MeasuredUsage(
        OptionalLong.of(168612L * 1024), OptionalDouble.of(1.248), OptionalLong.empty(), true));
    assertThat(records.usage(id("61_1")).peakHostMemoryBytes()).as("killed before a sample").isEmpty();
    assertThat(records.usage(id("99"))).isEqualTo(MeasuredUsage.NONE);
    assertThat(recorded("sacct-array-pending-cancelled.txt").usage(id("3229_1")))
        .as("an element folded into its array's record has no figures of its own").isEqualTo(MeasuredUsage.NONE);
  }
}

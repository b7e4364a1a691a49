package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.ClusterAccounting;
import dev.berth.core.lifecycle.Learned;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EventCodecTest {

  private static final Instant AT = Instant.parse("2024-05-01T10:00:00.123456789Z");

  @Test
  void eachTypeIsWrittenWithItsDiscriminatorAndEveryField() {
    assertThat(EventCodec.encode(new TaskEvent.Released(AT)))
        .isEqualTo("{\"at\":\"2024-05-01T10:00:00.123456789Z\",\"type\":\"released\"}");
    assertThat(EventCodec.encode(new TaskEvent.Launched(AT, 2, new Placement("cuda:1", 10, 1500, 20), 77, true)))
        .isEqualTo("{\"at\":\"2024-05-01T10:00:00.123456789Z\",\"attempt\":2,\"pid\":77,\"placement\":{\"device\":"
            + "\"cuda:1\",\"gpu-memory\":20,\"memory\":10,\"milli-cpus\":1500},\"two-stage\":true,\"type\":\"launched\"}");
    assertThat(EventCodec.encode(new TaskEvent.Ended(AT, Outcome.START_FAILED, null, null, TaskState.FAILED)))
        .isEqualTo("{\"at\":\"2024-05-01T10:00:00.123456789Z\",\"exit-code\":null,\"message\":null,"
            + "\"outcome\":\"START_FAILED\",\"target\":\"FAILED\",\"type\":\"ended\"}");
    assertThat(EventCodec.encode(new TaskEvent.Submitted(AT, 2, "23_1")))
        .isEqualTo("{\"at\":\"2024-05-01T10:00:00.123456789Z\",\"attempt\":2,\"cluster-id\":\"23_1\","
            + "\"type\":\"submitted\"}");
    assertThat(EventCodec.encode(new TaskEvent.Settled(AT, TaskState.UNREACHABLE, "a failed")))
        .isEqualTo("{\"at\":\"2024-05-01T10:00:00.123456789Z\",\"reason\":\"a failed\",\"target\":\"UNREACHABLE\","
            + "\"type\":\"settled\"}");
    assertThat(EventCodec.encode(new TaskEvent.Reopened(AT, "berth retry")))
        .isEqualTo("{\"at\":\"2024-05-01T10:00:00.123456789Z\",\"reason\":\"berth retry\",\"type\":\"reopened\"}");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
  void randomEventsOfEveryTypeSurviveTheRoundTripExactly(long seed) {
    Random random = new Random(seed);
    RandomSpecs text = new RandomSpecs(seed);
    for (int i = 0; i < 200; i++) {
      TaskEvent event = randomEvent(random, text);

      assertThat(EventCodec.decode(EventCodec.encode(event))).isEqualTo(event);
    }
  }

  @Test
  void everyKindOfEventTheCoreKnowsHasAType() {
    Random random = new Random(1);
    RandomSpecs text = new RandomSpecs(1);
    java.util.Set<Class<?>> seen = new java.util.HashSet<>();
    for (int i = 0; i < 500; i++) {
      TaskEvent event = randomEvent(random, text);
      seen.add(event.getClass());
      assertThat(EventCodec.type(event)).isNotBlank();
    }

    assertThat(seen).containsExactlyInAnyOrder(TaskEvent.class.getPermittedSubclasses());
  }

  @Test
  void theTwoStageEventsAreWrittenWithTheirFields() {
    assertThat(EventCodec.encode(new TaskEvent.Staged(AT, TaskState.LOADING)))
        .isEqualTo("{\"at\":\"2024-05-01T10:00:00.123456789Z\",\"target\":\"LOADING\",\"type\":\"staged\"}");
    assertThat(EventCodec.encode(new TaskEvent.Trained(AT, 3, new Placement("cuda:0", 0, 0, 7))))
        .isEqualTo("{\"at\":\"2024-05-01T10:00:00.123456789Z\",\"placement\":{\"device\":\"cuda:0\","
            + "\"gpu-memory\":7,\"memory\":0,\"milli-cpus\":0},\"train\":3,\"type\":\"trained\"}");
    assertThat(EventCodec.encode(new TaskEvent.Reported(AT, Outcome.GPU_OOM, "TRAIN", "CUDA out of memory")))
        .isEqualTo("{\"at\":\"2024-05-01T10:00:00.123456789Z\",\"message\":\"CUDA out of memory\","
            + "\"outcome\":\"GPU_OOM\",\"stage\":\"TRAIN\",\"type\":\"reported\"}");
  }

  @Test
  void anEndingKeepsWhatWasMeasuredAndWritesNothingWhenNothingWas() {
    MeasuredUsage measured = new MeasuredUsage(OptionalLong.of(314_572_800L), OptionalDouble.of(12.5),
        OptionalLong.empty(), true);
    TaskEvent.Ended ended = new TaskEvent.Ended(AT, Outcome.HOST_OOM, 137, "killed", TaskState.READY, measured);

    assertThat(EventCodec.encode(ended)).contains(
        "\"usage\":{\"cpu-seconds\":12.5,\"exact\":true,\"peak-host-memory\":314572800}");
    assertThat(EventCodec.decode(EventCodec.encode(ended))).isEqualTo(ended);
    assertThat(EventCodec.encode(ended.withUsage(MeasuredUsage.NONE))).doesNotContain("usage");
  }

  @Test
  void aLaunchKeepsWhatWasLearnedAndWritesNothingWhenItReservedWhatWasDeclared() {
    List<Learned> learned = List.of(
        new Learned("memory", 240L << 20, 4L << 30, 5, "bs=256"),
        new Learned("gpu-memory", 6L << 30, 4L << 30, 0, "t-3"));
    TaskEvent.Launched launched = new TaskEvent.Launched(AT, 1, Placement.cpu(240L << 20, 0), 7, false, learned);

    assertThat(EventCodec.encode(launched)).contains("\"learned\":[{\"basis\":\"bs=256\",\"bytes\":251658240,"
        + "\"declared\":4294967296,\"from-tasks\":5,\"resource\":\"memory\"}");
    assertThat(EventCodec.decode(EventCodec.encode(launched))).isEqualTo(launched);
    assertThat(EventCodec.encode(new TaskEvent.Launched(AT, 1, Placement.cpu(1, 0), 7, false))).doesNotContain("learned");
  }

  @Test
  void instantsKeepTheirNanosecondsAndFarDates() {
    for (Instant at : new Instant[] {Instant.EPOCH, Instant.ofEpochSecond(-1, 1), Instant.MIN, Instant.MAX, AT}) {
      assertThat(EventCodec.decode(EventCodec.encode(new TaskEvent.Released(at))).at()).isEqualTo(at);
    }
  }

  @Test
  void aJournalWrittenWithTheOldStateNamesStillReads() {
    String at = "\"at\":\"2024-05-01T10:00:00Z\"";
    assertThat(EventCodec.decode("{" + at + ",\"exit-code\":0,\"message\":null,\"outcome\":\"SUCCEEDED\","
        + "\"target\":\"EXITED\",\"type\":\"ended\"}")).extracting(TaskEvent::target).isEqualTo(TaskState.SUCCEEDED);
    assertThat(EventCodec.decode("{" + at + ",\"exit-code\":1,\"message\":null,\"outcome\":\"FAILED\","
        + "\"target\":\"INIT\",\"type\":\"ended\"}")).extracting(TaskEvent::target).isEqualTo(TaskState.READY);
    assertThat(EventCodec.decode("{" + at + ",\"reason\":\"x\",\"target\":\"EXCEPTION\",\"type\":\"settled\"}"))
        .extracting(TaskEvent::target).isEqualTo(TaskState.FAILED);
    assertThat(EventCodec.decode("{" + at + ",\"target\":\"WAITING\",\"type\":\"staged\"}"))
        .extracting(TaskEvent::target).isEqualTo(TaskState.LOADED);
    assertThat(EventCodec.decode("{" + at + ",\"target\":\"FINISHED\",\"type\":\"staged\"}"))
        .extracting(TaskEvent::target).isEqualTo(TaskState.TRAINED);
    assertThatThrownBy(() -> EventCodec.decode("{" + at + ",\"target\":\"DONE\",\"type\":\"staged\"}"))
        .hasMessageStartingWith("target must be one of [QUEUED, READY,");
  }

  @Test
  void aClusterAccountingIsWrittenWithTheTimesItHasAndReadBack() {
    ClusterAccounting ran = new ClusterAccounting("23_1", "COMPLETED", Optional.of(Instant.parse("2026-11-29T10:00:00Z")),
        Optional.of(Instant.parse("2026-11-29T10:00:30Z")), Optional.of(Instant.parse("2026-11-29T10:01:30Z")),
        Optional.of(Duration.ofSeconds(60)), "node7", "0:0");
    TaskEvent event = new TaskEvent.Accounted(AT, 2, ran);

    assertThat(EventCodec.encode(event)).isEqualTo("{\"accounting\":{\"elapsed-ms\":60000,"
        + "\"end\":\"2026-11-29T10:01:30Z\",\"exit-code\":\"0:0\",\"job-id\":\"23_1\",\"nodes\":\"node7\","
        + "\"start\":\"2026-11-29T10:00:30Z\",\"state\":\"COMPLETED\",\"submit\":\"2026-11-29T10:00:00Z\"},"
        + "\"at\":\"2024-05-01T10:00:00.123456789Z\",\"attempt\":2,\"type\":\"accounted\"}");
    assertThat(EventCodec.decode(EventCodec.encode(event))).isEqualTo(event);
    TaskEvent neverRan = new TaskEvent.Accounted(AT, 1, new ClusterAccounting("24", "CANCELLED by 0",
        Optional.of(Instant.parse("2026-11-29T10:00:00Z")), Optional.empty(), Optional.empty(), Optional.empty(), "",
        "0:0"));
    assertThat(EventCodec.decode(EventCodec.encode(neverRan))).isEqualTo(neverRan);
  }

  @Test
  void anUnknownTypeOrAMissingFieldIsNamed() {
    assertThatThrownBy(() -> EventCodec.decode("{\"type\":\"paused\",\"at\":\"2024-05-01T10:00:00Z\"}"))
        .hasMessage("type must be released, launched, started, submitted, accounted, staged, trained, reported,"
            + " ended, settled or reopened but was \"paused\"");
    assertThatThrownBy(() -> EventCodec.decode("{\"type\":\"settled\",\"at\":\"2024-05-01T10:00:00Z\",\"reason\":\"x\"}"))
        .hasMessage("target is missing");
    assertThatThrownBy(() -> EventCodec.decode("{\"type\":\"released\",\"at\":\"yesterday\"}"))
        .hasMessageStartingWith("at must be an ISO-8601 instant");
    assertThatThrownBy(() -> EventCodec.decode("{\"type\":\"released\",\"at\":\"2024-05-01T10:00:00Z\",\"x\":1}"))
        .hasMessage("x is not a known field");
  }

  static TaskEvent randomEvent(Random random, RandomSpecs text) {
    Instant at = Instant.ofEpochSecond(random.nextInt() & 0x7fffffffL, random.nextInt(1_000_000_000));
    TaskState[] terminal = {TaskState.SUCCEEDED, TaskState.FAILED, TaskState.CANCELLED, TaskState.TIMED_OUT,
        TaskState.UNREACHABLE};
    TaskState[] stages = {TaskState.LOADING, TaskState.LOADED, TaskState.TRAINED};
    return switch (random.nextInt(10)) {
      case 0 -> new TaskEvent.Released(at);
      case 7 -> new TaskEvent.Reopened(at, text.any());
      case 8 -> new TaskEvent.Started(at, 1 + random.nextInt(Integer.MAX_VALUE), 1 + random.nextInt(Integer.MAX_VALUE));
      case 3 -> random.nextBoolean()
          ? new TaskEvent.Submitted(at, 1 + random.nextInt(Integer.MAX_VALUE), random.nextInt(1 << 20) + "_" + random.nextInt(1000))
          : new TaskEvent.Accounted(at, 1 + random.nextInt(Integer.MAX_VALUE), new ClusterAccounting(
              Integer.toString(random.nextInt(1 << 20)), text.any(), Optional.of(at),
              random.nextBoolean() ? Optional.of(at.plusSeconds(random.nextInt(1000))) : Optional.empty(),
              random.nextBoolean() ? Optional.of(at.plusSeconds(1000)) : Optional.empty(),
              random.nextBoolean() ? Optional.of(Duration.ofSeconds(random.nextInt(1000))) : Optional.empty(),
              text.any(), text.any()));
      case 4 -> new TaskEvent.Staged(at, stages[random.nextInt(stages.length)]);
      case 5 -> new TaskEvent.Trained(at, random.nextInt(), new Placement(text.any(), random.nextLong(),
          random.nextLong(), random.nextLong()));
      case 6 -> new TaskEvent.Reported(at, Outcome.values()[random.nextInt(Outcome.values().length)], text.any(),
          text.any());
      case 1 -> new TaskEvent.Launched(at, 1 + random.nextInt(Integer.MAX_VALUE),
          new Placement(random.nextBoolean() ? "cpu" : text.any(), random.nextLong(), random.nextLong(),
              random.nextLong()), random.nextLong(), random.nextBoolean());
      case 2 -> new TaskEvent.Ended(at, Outcome.values()[random.nextInt(Outcome.values().length)],
          random.nextBoolean() ? null : random.nextInt(), random.nextBoolean() ? null : text.any(),
          TaskState.values()[random.nextInt(TaskState.values().length)]);
      default -> new TaskEvent.Settled(at, terminal[random.nextInt(terminal.length)], text.any());
    };
  }
}

package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An event's row leaves out what holds its usual value and puts it back exactly. */
class EventRowsTest {

  private static final Instant AT = Instant.parse("2024-05-01T10:00:00.123456789Z");

  private static TaskEvent roundTrip(TaskEvent event) {
    return EventRows.event(EventCodec.type(event), EventRows.at(event.at()), EventRows.json(event));
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
  void randomEventsOfEveryTypeSurviveTheRowExactly(long seed) {
    Random random = new Random(seed);
    RandomSpecs text = new RandomSpecs(seed);
    for (int i = 0; i < 200; i++) {
      TaskEvent event = EventCodecTest.randomEvent(random, text);

      assertThat(roundTrip(event)).isEqualTo(event);
    }
  }

  @Test
  void aNoOpTasksEventsLeaveOutTheirUsualValues() {
    TaskEvent.Launched launched = new TaskEvent.Launched(AT, 1, new Placement("cpu", 1L << 20, 0, 0), -1, false, List.of());
    TaskEvent.Ended ended = new TaskEvent.Ended(AT, Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED,
        new MeasuredUsage(OptionalLong.of(520192), OptionalDouble.of(0.0025), OptionalLong.empty(), true));

    assertThat(EventRows.json(new TaskEvent.Released(AT))).isEqualTo("{}");
    assertThat(EventRows.json(launched)).isEqualTo("{\"a\":1,\"p\":{\"m\":1048576}}");
    assertThat(EventRows.json(new TaskEvent.Started(AT, 1, 4242))).isEqualTo("{\"a\":1,\"i\":4242}");
    assertThat(EventRows.json(ended)).isEqualTo("{\"o\":\"SUCCEEDED\",\"u\":{\"h\":520192,\"s\":0.0025},\"x\":0}");
    assertThat(roundTrip(launched)).isEqualTo(launched);
    assertThat(roundTrip(ended)).isEqualTo(ended);
  }

  @Test
  void anEndingWhoseTargetIsNotItsOutcomeKeepsIt() {
    TaskEvent.Ended retried = new TaskEvent.Ended(AT, Outcome.FAILED, 1, "exit code 1", TaskState.READY);

    assertThat(EventRows.json(retried)).contains("\"t\":\"READY\"");
    assertThat(roundTrip(retried)).isEqualTo(retried);
  }

  @Test
  void instantsKeepTheirNanosecondsBeforeAndAfterTheEpoch() {
    for (Instant at : List.of(AT, Instant.parse("1969-12-31T23:59:59.999999999Z"), Instant.parse("2200-01-01T00:00:00Z"))) {
      assertThat(roundTrip(new TaskEvent.Released(at)).at()).isEqualTo(at);
    }
  }
}

package dev.berth.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ControlCodecTest {

  @Test
  void commandsHaveTheDocumentedForm() throws Exception {
    assertThat(ControlCodec.encode(ControlCommand.load())).isEqualTo("{\"type\":\"load\"}");
    assertThat(ControlCodec.encode(ControlCommand.train("cuda:1"))).isEqualTo("{\"type\":\"train\",\"device\":\"cuda:1\"}");
    assertThat(ControlCodec.encode(ControlCommand.exit())).isEqualTo("{\"type\":\"exit\"}");
    for (ControlCommand c : List.of(ControlCommand.load(), ControlCommand.train("cpu"), ControlCommand.exit())) {
      assertThat(ControlCodec.decodeCommand(ControlCodec.encode(c))).isEqualTo(c);
    }
  }

  @Test
  void everyTaskMessageIsRead() throws Exception {
    assertThat(ControlCodec.decode("{\"type\":\"status\",\"status\":\"LOADING\"}"))
        .isEqualTo(new TaskMessage.Status(TaskPhase.LOADING));
    assertThat(ControlCodec.decode("{\"type\":\"item\",\"key\":\"k\",\"value\":{\"a\":[1,\"x\",null,true]}}"))
        .isEqualTo(new TaskMessage.Item("k", Map.of("a", Arrays.asList(1, "x", null, true))));
    assertThat(ControlCodec.decode("{\"type\":\"result\",\"result\":{\"acc\":0.5}}"))
        .isEqualTo(new TaskMessage.Result(Map.of("acc", 0.5)));
    assertThat(ControlCodec.decode("{\"type\":\"finished\",\"loadTimeMs\":12,\"trainTimeMs\":34}"))
        .isEqualTo(new TaskMessage.Finished(12, 34));
    assertThat(ControlCodec.decode("{\"type\":\"oom\",\"stage\":\"LOAD\",\"message\":\"MemoryError\"}"))
        .isEqualTo(new TaskMessage.Oom(Stage.LOAD, "MemoryError"));
    assertThat(ControlCodec.decode("{\"type\":\"exception\",\"stage\":\"TRAIN\",\"message\":\"m\",\"traceback\":\"t\"}"))
        .isEqualTo(new TaskMessage.Failure(Stage.TRAIN, "m", "t"));
  }

  @Test
  void aHelloIsReadWithItsCredentials() throws Exception {
    assertThat(ControlCodec.decodeHello(ControlCodec.hello("t-1", "beef", 77)))
        .isEqualTo(new ControlCodec.HelloLine("t-1", "beef", 1, 77));
  }

  @Test
  void messagesRoundTripThroughTheirLines() throws Exception {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("loss", 0.25);
    result.put("best", null);
    result.put("epochs", List.of(1, 2));
    List<TaskMessage> messages = List.of(
        new TaskMessage.Status(TaskPhase.TRAINING),
        new TaskMessage.Item("note", "hi"),
        new TaskMessage.Item("nothing", null),
        new TaskMessage.Result(result),
        new TaskMessage.Finished(1, 2),
        new TaskMessage.Oom(Stage.TRAIN, "CUDA out of memory"),
        new TaskMessage.Failure(Stage.LOAD, "ValueError: x", "Traceback...\n  line 3\n"));
    for (TaskMessage m : messages) {
      assertThat(ControlCodec.decode(ControlCodec.encode(m))).isEqualTo(m);
    }
  }

  @Test
  void aResultKeepsItsNullValuesAndOrder() throws Exception {
    TaskMessage.Result r = (TaskMessage.Result) ControlCodec.decode(
        "{\"type\":\"result\",\"result\":{\"z\":1,\"a\":null,\"m\":\"x\"}}");

    assertThat(r.result()).containsKeys("z", "a", "m").containsEntry("a", null);
    assertThat(r.result().keySet()).containsExactly("z", "a", "m");
  }

  @Test
  void nonFiniteNumbersAreAccepted() throws Exception {
    TaskMessage.Item item = (TaskMessage.Item) ControlCodec.decode("{\"type\":\"item\",\"key\":\"loss\",\"value\":NaN}");

    assertThat((Double) item.value()).isNaN();
  }

  @Test
  void unknownFieldsAreIgnoredAndMissingTextsAreEmpty() throws Exception {
    assertThat(ControlCodec.decode("{\"type\":\"oom\",\"stage\":\"TRAIN\",\"gpu\":3}"))
        .isEqualTo(new TaskMessage.Oom(Stage.TRAIN, ""));
  }

  @Test
  void malformedLinesAreRejectedWithTheReason() {
    assertRejected("not json", "not JSON");
    assertRejected("[1,2]", "one JSON object");
    assertRejected("{\"status\":\"LOADING\"}", "'type'");
    assertRejected("{\"type\":\"dance\"}", "unknown message type 'dance'");
    assertRejected("{\"type\":\"status\",\"status\":\"loading\"}", "unknown value 'loading'");
    assertRejected("{\"type\":\"result\",\"result\":[1]}", "'result' must be an object");
    assertRejected("{\"type\":\"finished\",\"loadTimeMs\":1.5,\"trainTimeMs\":2}", "'loadTimeMs' must be an integer");
    assertRejected("{\"type\":\"item\",\"value\":1}", "'key'");
    assertRejected("{\"type\":\"status\",\"status\":\"LOADING\"} {}", "not JSON");
    assertRejected(ControlCodec.hello("t", "x", 1), "second hello");
  }

  @Test
  void aHelloMustComeFirst() {
    assertThatThrownBy(() -> ControlCodec.decodeHello("{\"type\":\"status\",\"status\":\"LOADING\"}"))
        .isInstanceOf(ControlProtocolException.class).hasMessageContaining("must be a hello");
    assertThatThrownBy(() -> ControlCodec.decodeHello("{\"type\":\"hello\",\"task\":\"t\",\"token\":\"x\",\"pid\":1}"))
        .isInstanceOf(ControlProtocolException.class).hasMessageContaining("'protocol'");
  }

  @Test
  void aHelloCannotBeEncodedWithoutItsCredentials() {
    assertThatThrownBy(() -> ControlCodec.encode(new TaskMessage.Hello(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static void assertRejected(String line, String reason) {
    assertThatThrownBy(() -> ControlCodec.decode(line))
        .as(line).isInstanceOf(ControlProtocolException.class).hasMessageContaining(reason);
  }
}

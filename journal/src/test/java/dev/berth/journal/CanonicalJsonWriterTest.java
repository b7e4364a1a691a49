package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ShortNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.berth.core.lifecycle.Learned;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The journal's own writer writes every tree as Jackson's mapper did, byte for byte, or leaves it to the mapper. */
class CanonicalJsonWriterTest {

  private static final Instant AT = Instant.parse("2024-05-01T10:00:00.123456789Z");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** What strings are made of: the characters that are escaped, and those next to them that are not. */
  private static final String[] PIECES = {
      "\"", "\\", "/", "\u007f", "\u0080", "\u00ff", "é", "€", "中", "\u2028", "\ufeff", "\uffff",
      "\ud800", "\udbff", "\udc00", "\udfff", "\ud83d\ude00", "\ude00\ud83d", "a", "Z", " ", "0"};

  @Test
  void writesTheSameTextAsJacksonForEveryEventKind() {
    List<TaskEvent> events = new ArrayList<>(everyKindOfEvent());
    Random random = new Random(7);
    RandomSpecs text = new RandomSpecs(7);
    for (int i = 0; i < 2000; i++) {
      events.add(EventCodecTest.randomEvent(random, text));
    }
    Set<Class<?>> kinds = new HashSet<>();

    for (TaskEvent event : events) {
      kinds.add(event.getClass());
      assertWrittenAsByTheMapper(EventCodec.toJson(event));
      assertThat(EventRows.json(event)).isEqualTo(CanonicalJson.writeWithMapper(EventRows.tree(event)));
    }
    assertThat(kinds).containsExactlyInAnyOrder(TaskEvent.class.getPermittedSubclasses());
  }

  @Test
  void sortsKeysByTheirUtf16CodeUnitsAsJacksonDoes() {
    ObjectNode keys = CanonicalJson.object();
    for (String key : List.of("é", "\ud83d\ude00", "a", "\uffff", "B", "", "aa", "a\u0000", "\u0001", "Z", "\ud800")) {
      keys.put(key, key.length());
    }

    assertWrittenAsByTheMapper(keys);
    // by code points U+1F600 would come after U+FFFF; by code units its high surrogate comes before
    assertThat(CanonicalJson.write(keys)).isEqualTo("{\"\":0,\"\\u0001\":1,\"B\":1,\"Z\":1,\"a\":1,\"a\\u0000\":2,"
        + "\"aa\":2,\"é\":1,\"\\ud800\":1,\"\\ud83d\\ude00\":2,\"\uffff\":1}");
  }

  @Test
  void writesNestedAndEmptyObjectsAndArraysAsJacksonDoes() {
    ObjectNode nested = CanonicalJson.object();
    nested.putArray("z").addObject().put("b", "x").putArray("a").add(1).addArray().add(2).addArray().addObject();
    nested.putObject("y").putObject("x").putObject("w");
    nested.putArray("e");
    nested.putObject("d");
    nested.putNull("c");
    ArrayNode mixed = NODES.arrayNode().addNull().add(true).add(false).add("").add(0).add(NODES.arrayNode())
        .add(CanonicalJson.object());

    for (JsonNode tree : List.of(CanonicalJson.object(), NODES.arrayNode(), NODES.arrayNode().add(NODES.arrayNode()),
        NODES.arrayNode().add(CanonicalJson.object()), CanonicalJson.object().set("a", CanonicalJson.object()),
        nested, mixed)) {
      assertWrittenAsByTheMapper(tree);
    }
    assertThat(CanonicalJson.write(nested))
        .isEqualTo("{\"c\":null,\"d\":{},\"e\":[],\"y\":{\"x\":{\"w\":{}}},\"z\":[{\"a\":[1,[2,[{}]]],\"b\":\"x\"}]}");
  }

  @Test
  void writesEveryKindOfNumberAsJacksonDoes() {
    List<JsonNode> numbers = new ArrayList<>(List.of(
        NODES.numberNode(0), NODES.numberNode(Integer.MIN_VALUE), NODES.numberNode(Integer.MAX_VALUE),
        ShortNode.valueOf((short) -7), NODES.numberNode(Long.MIN_VALUE), NODES.numberNode(Long.MAX_VALUE),
        NODES.numberNode(Long.MAX_VALUE - 1), NODES.numberNode(-1L),
        BigIntegerNode.valueOf(new BigInteger("-123456789012345678901234567890")),
        DecimalNode.valueOf(new BigDecimal("0.500")), DecimalNode.valueOf(new BigDecimal("1E+3")),
        DecimalNode.valueOf(new BigDecimal("1E-7")), DecimalNode.valueOf(new BigDecimal("-0.00")),
        DecimalNode.valueOf(new BigDecimal("123456789.123456789E-20")), DecimalNode.valueOf(new BigDecimal("1E+9999")),
        DecimalNode.valueOf(new BigDecimal("1E-9999"))));
    for (double d : new double[] {0.0, -0.0, 0.1, 1e-7, 1.0E20, 1e7, 9999999.0, 1e-3, 0.001840143, 2.82879384806159E17,
        Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      numbers.add(NODES.numberNode(d));
    }
    for (float f : new float[] {0.1f, -0.0f, 1e-7f, 1.0E10f, Float.MIN_VALUE, Float.MAX_VALUE, Float.NaN,
        Float.NEGATIVE_INFINITY}) {
      numbers.add(NODES.numberNode(f));
    }

    for (JsonNode number : numbers) {
      assertWrittenAsByTheMapper(number);
      assertWrittenAsByTheMapper(CanonicalJson.object().set("n", number));
      assertWrittenAsByTheMapper(NODES.arrayNode().add(number).add(number));
    }
    assertThat(CanonicalJson.write(NODES.arrayNode().add(1e-7).add(Double.NaN).add(new BigDecimal("1E-7"))))
        .isEqualTo("[1.0E-7,\"NaN\",0.0000001]");
  }

  @Test
  void escapesEachCharacterAsJacksonDoes() {
    for (char c = 0; c < 0x100; c++) {
      assertWrittenAsByTheMapper(NODES.textNode("<" + c + ">"));
    }
    for (String piece : PIECES) {
      assertWrittenAsByTheMapper(NODES.textNode(piece));
    }
    assertThat(CanonicalJson.write(NODES.textNode("\u0000\u001f\b\f\u007f/\ud83d\ude00")))
        .isEqualTo("\"\\u0000\\u001f\\b\\f\u007f/\\ud83d\\ude00\"");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void writesTheSameTextAsJacksonForRandomTrees(long seed) {
    Random random = new Random(seed);
    for (int i = 0; i < 400; i++) {
      assertWrittenAsByTheMapper(randomTree(random, 0));
    }
  }

  @Test
  void leavesToJacksonTheTreesItDoesNotWriteItself() {
    ArrayNode odd = NODES.arrayNode()
        .add(NODES.binaryNode(new byte[] {0, 1, -6, -5, -4}))
        .add(NODES.pojoNode(List.of(1, "x")))
        .add(MissingNode.getInstance())
        .add(NODES.rawValueNode(new RawValue("{ \"x\" : 1 }")));
    ArrayNode deepest = NODES.arrayNode();
    ArrayNode innermost = deepest;
    for (int depth = 1; depth < 1000; depth++) {
      innermost = innermost.addArray();
    }

    for (JsonNode tree : odd) {
      assertWrittenAsByTheMapper(tree);
      assertWrittenAsByTheMapper(CanonicalJson.object().set("k", tree));
    }
    assertWrittenAsByTheMapper(deepest);
    innermost.addArray();
    assertRefusedAsByTheMapper(deepest);
    assertRefusedAsByTheMapper(CanonicalJson.object().set("k", DecimalNode.valueOf(new BigDecimal("1E+10000"))));
    assertRefusedAsByTheMapper(DecimalNode.valueOf(new BigDecimal("1E-10000")));
  }

  private static void assertWrittenAsByTheMapper(JsonNode tree) {
    assertThat(CanonicalJson.write(tree)).isEqualTo(CanonicalJson.writeWithMapper(tree));
  }

  private static void assertRefusedAsByTheMapper(JsonNode tree) {
    Throwable byTheMapper = catchThrowable(() -> CanonicalJson.writeWithMapper(tree));

    assertThat(byTheMapper).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> CanonicalJson.write(tree))
        .isInstanceOf(IllegalStateException.class).hasMessage(byTheMapper.getMessage());
  }

  /** One event of each kind, with the fields that random events leave out: learned reservations, measurements. */
  private static List<TaskEvent> everyKindOfEvent() {
    List<Learned> learned = List.of(new Learned("memory", 240L << 20, 4L << 30, 5, "bs=256"),
        new Learned("gpu-memory", 6L << 30, 4L << 30, 0, "t-3"));
    return List.of(
        new TaskEvent.Released(AT),
        new TaskEvent.Launched(AT, 1, new Placement("cpu", 1L << 20, 0, 0), -1, false),
        new TaskEvent.Launched(AT, 2, new Placement("cuda:1", 10, 1500, 20), 77, true, learned),
        new TaskEvent.Started(AT, 1, 9661),
        new TaskEvent.Submitted(AT, 2, "23_1"),
        new TaskEvent.Staged(AT, TaskState.LOADING),
        new TaskEvent.Trained(AT, 3, new Placement("cuda:0", 0, 0, 7)),
        new TaskEvent.Reported(AT, Outcome.GPU_OOM, "TRAIN", "CUDA out of memory"),
        new TaskEvent.Ended(AT, Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED,
            new MeasuredUsage(OptionalLong.of(524288), OptionalDouble.of(0.001840143), OptionalLong.empty(), true)),
        new TaskEvent.Ended(AT, Outcome.HOST_OOM, 137, "killed", TaskState.READY,
            new MeasuredUsage(OptionalLong.of(314_572_800L), OptionalDouble.of(1e-7), OptionalLong.of(6L << 30),
                false)),
        new TaskEvent.Ended(AT, Outcome.FAILED, 1, "exit code 1", TaskState.READY,
            new MeasuredUsage(OptionalLong.empty(), OptionalDouble.of(1.0E20), OptionalLong.empty(), true)),
        new TaskEvent.Ended(AT, Outcome.START_FAILED, null, null, TaskState.FAILED),
        new TaskEvent.Settled(AT, TaskState.CANCELLED, "cancelled by the user"),
        new TaskEvent.Reopened(AT, "berth retry"));
  }

  private static JsonNode randomTree(Random random, int depth) {
    int pick = random.nextInt(depth < 4 ? 10 : 6);
    if (pick < 2) {
      return NODES.textNode(randomString(random));
    } else if (pick < 4) {
      return randomNumber(random);
    } else if (pick == 4) {
      return random.nextBoolean() ? NODES.booleanNode(random.nextBoolean()) : NODES.nullNode();
    } else if (pick == 5) {
      // now and then longer than the mapper's buffer, which it writes by another path
      return NODES.textNode(randomString(random).repeat(random.nextInt(20) == 0 ? 800 : 1));
    } else if (pick < 8) {
      ObjectNode object = CanonicalJson.object();
      for (int i = random.nextInt(6); i > 0; i--) {
        object.set(randomString(random), randomTree(random, depth + 1));
      }
      return object;
    }
    ArrayNode array = NODES.arrayNode();
    for (int i = random.nextInt(6); i > 0; i--) {
      array.add(randomTree(random, depth + 1));
    }
    return array;
  }

  /** Control characters, quotes, backslashes, 0x7F, non-ASCII, lone surrogates and pairs, any BMP character. */
  private static String randomString(Random random) {
    StringBuilder s = new StringBuilder();
    for (int i = random.nextInt(16); i > 0; i--) {
      switch (random.nextInt(4)) {
        case 0 -> s.append((char) random.nextInt(0x20));
        case 1 -> s.append((char) random.nextInt(0x10000));
        default -> s.append(PIECES[random.nextInt(PIECES.length)]);
      }
    }
    return s.toString();
  }

  private static JsonNode randomNumber(Random random) {
    return switch (random.nextInt(10)) {
      case 0 -> NODES.numberNode(random.nextInt());
      case 1 -> NODES.numberNode(random.nextBoolean() ? Long.MAX_VALUE - random.nextInt(3)
          : Long.MIN_VALUE + random.nextInt(3));
      case 2 -> NODES.numberNode(random.nextLong());
      case 3 -> BigIntegerNode.valueOf(new BigInteger(1 + random.nextInt(200), random).negate());
      case 4 -> DecimalNode.valueOf(new BigDecimal(new BigInteger(1 + random.nextInt(80), random),
          random.nextInt(81) - 40));
      case 5 -> NODES.numberNode(Double.longBitsToDouble(random.nextLong()));
      case 6 -> NODES.numberNode(Float.intBitsToFloat(random.nextInt()));
      case 7 -> NODES.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(60) - 30));
      case 8 -> NODES.numberNode(random.nextInt(1_000_000) / 1e9);
      default -> NODES.numberNode((short) random.nextInt());
    };
  }
}

package dev.berth.runtime.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.gpu.GpuProcess;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NvmlValuesTest {

  @Test
  void notAvailableIsAllOnesAndMeansUnknown() {
    assertThat(NvmlValues.NOT_AVAILABLE).isEqualTo(-1L);
    assertThat(NvmlValues.bytes(NvmlValues.NOT_AVAILABLE)).isEqualTo(-1);
    assertThat(NvmlValues.bytes(0x8000000000000000L)).as("beyond Long.MAX_VALUE is garbage").isEqualTo(-1);
    assertThat(NvmlValues.bytes(85_899_345_920L)).as("80 GiB stays").isEqualTo(85_899_345_920L);
  }

  @Test
  void percentagesBecomeFractionsAndNonsenseBecomesUnknown() {
    assertThat(NvmlValues.percent(37)).isEqualTo(0.37);
    assertThat(NvmlValues.percent(100)).isEqualTo(1.0);
    assertThat(NvmlValues.percent(101)).isEqualTo(-1);
    assertThat(NvmlValues.percent(-1)).as("0xFFFFFFFF unsigned").isEqualTo(-1);
  }

  @Test
  void cStringsEndAtTheFirstNul() {
    byte[] buffer = new byte[96];
    byte[] name = "NVIDIA H100 80GB HBM3".getBytes(StandardCharsets.UTF_8);
    System.arraycopy(name, 0, buffer, 0, name.length);
    buffer[name.length + 1] = 'x';
    assertThat(NvmlValues.cString(buffer)).isEqualTo("NVIDIA H100 80GB HBM3");
    assertThat(NvmlValues.cString("no terminator".getBytes(StandardCharsets.UTF_8))).isEqualTo("no terminator");
  }

  @Test
  void processInfosAreDecodedAtTheirOffsetsInEitherByteOrder() {
    for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
      ByteBuffer b = ByteBuffer.allocate(3 * 24).order(order);
      b.putInt(0, 4242).putLong(8, 1L << 30).putInt(16, 1).putInt(20, 2);
      b.putInt(24, 0xFFFFFFFE).putLong(32, NvmlValues.NOT_AVAILABLE);
      b.putInt(48, 99).putLong(56, 5);

      assertThat(NvmlValues.processes(b.array(), 2, 24, order))
          .as("count 2 of 3 entries, %s", order)
          .containsExactly(new GpuProcess(4242, 1L << 30), new GpuProcess(4294967294L, GpuProcess.UNKNOWN));
    }
  }

  @Test
  void version1EntriesAreSixteenBytes() {
    ByteBuffer b = ByteBuffer.allocate(32).order(ByteOrder.nativeOrder());
    b.putInt(0, 1).putLong(8, 10).putInt(16, 2).putLong(24, 20);
    assertThat(NvmlValues.processes(b.array(), 2, NvmlValues.PROCESS_INFO_V1_BYTES))
        .containsExactly(new GpuProcess(1, 10), new GpuProcess(2, 20));
  }

  @Test
  void aCountLargerThanTheBufferIsCappedAndBadStridesRejected() {
    assertThat(NvmlValues.processes(new byte[24], 5, 24)).hasSize(1);
    assertThat(NvmlValues.processes(new byte[24], -1, 24)).isEmpty();
    assertThatThrownBy(() -> NvmlValues.processes(new byte[24], 1, 8)).isInstanceOf(IllegalArgumentException.class);
  }
}

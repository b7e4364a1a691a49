package dev.berth.runtime.exec;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The argument and environment arrays handed to posix_spawn, read back as C reads them. */
class NativeStringsTest {

  @Test
  void holdsEachStringInOrderThenANullPointer() {
    List<String> values = List.of("PATH=/usr/bin:/bin", "", "HOME=/root", "x=a b\tc");
    try (Memory block = NativeStrings.of(values)) {
      assertThat(readBack(block)).containsExactlyElementsOf(values);
      assertThat(block.getPointer((long) values.size() * Native.POINTER_SIZE)).isNull();
    }
  }

  @Test
  void anEmptyListIsOnlyTheNullPointer() {
    try (Memory block = NativeStrings.of(List.of())) {
      assertThat(block.size()).isEqualTo(Native.POINTER_SIZE);
      assertThat(block.getPointer(0)).isNull();
    }
  }

  @Test
  void encodesAsJnaEncodesAString() {
    String value = "LABEL=caf\u00e9";
    try (Memory block = NativeStrings.of(List.of(value))) {
      byte[] expected = Native.toByteArray(value);
      assertThat(block.getPointer(0).getByteArray(0, expected.length)).isEqualTo(expected);
    }
  }

  private static List<String> readBack(Memory block) {
    List<String> read = new ArrayList<>();
    for (long at = 0; ; at += Native.POINTER_SIZE) {
      Pointer p = block.getPointer(at);
      if (p == null) {
        return read;
      }
      read.add(p.getString(0));
    }
  }
}

package dev.berth.runtime.exec;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.util.List;

/**
 * A {@code NULL}-terminated array of C strings ({@code argv}, {@code envp}) in one native
 * allocation: the pointers first, then the strings they point at. JNA's {@code StringArray} makes
 * one allocation per string, each with its own cleaner entry, which for a task's inherited
 * environment was dozens per start. Strings are encoded as JNA encodes them.
 */
final class NativeStrings {

  private NativeStrings() {}

  /** The array of {@code values}; the caller closes it once the call that reads it has returned. */
  static Memory of(List<String> values) {
    byte[][] encoded = new byte[values.size()][];
    long bytes = 0;
    for (int i = 0; i < encoded.length; i++) {
      encoded[i] = Native.toByteArray(values.get(i)); // with its terminating NUL
      bytes += encoded[i].length;
    }
    long pointers = (long) (encoded.length + 1) * Native.POINTER_SIZE;
    Memory block = new Memory(pointers + bytes);
    long base = Pointer.nativeValue(block);
    long at = pointers;
    for (int i = 0; i < encoded.length; i++) {
      block.write(at, encoded[i], 0, encoded[i].length);
      block.setPointer((long) i * Native.POINTER_SIZE, new Pointer(base + at));
      at += encoded[i].length;
    }
    block.setPointer((long) encoded.length * Native.POINTER_SIZE, null);
    return block;
  }
}

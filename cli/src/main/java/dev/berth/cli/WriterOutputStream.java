package dev.berth.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Lets code that prints to a {@link java.io.PrintStream} write to the command's {@link PrintWriter}. */
final class WriterOutputStream extends OutputStream {

  private final PrintWriter writer;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  WriterOutputStream(PrintWriter writer) {
    this.writer = writer;
  }

  @Override
  public synchronized void write(int b) {
    line.write(b);
    if (b == '\n') {
      flush();
    }
  }

  /**
   * A whole array at a time, its complete lines flushed together: the inherited method would take
   * the lock and flush once per byte and per line.
   */
  @Override
  public synchronized void write(byte[] bytes, int offset, int length) {
    int end = offset + length;
    int lastLine = end - 1;
    while (lastLine >= offset && bytes[lastLine] != '\n') {
      lastLine--;
    }
    if (lastLine >= offset) {
      line.write(bytes, offset, lastLine + 1 - offset);
      flush();
    }
    line.write(bytes, lastLine + 1, end - lastLine - 1);
  }

  @Override
  public synchronized void flush() {
    writer.write(line.toString(StandardCharsets.UTF_8));
    writer.flush();
    line.reset();
  }
}

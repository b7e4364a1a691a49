package dev.berth.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Lets code that prints to a {@link java.io.PrintStream} write to picocli's {@link PrintWriter}. */
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

  @Override
  public synchronized void flush() {
    writer.write(line.toString(StandardCharsets.UTF_8));
    writer.flush();
    line.reset();
  }
}

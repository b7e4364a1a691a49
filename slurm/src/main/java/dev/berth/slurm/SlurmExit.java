package dev.berth.slurm;

/**
 * How Slurm saw a job's batch script end: its exit code, or the signal that killed it.
 *
 * @param code the exit code (0 to 255), 0 when killed by a signal
 * @param signal the signal number, 0 when it exited
 */
public record SlurmExit(int code, int signal) {

  /** Nothing known yet, or a clean exit. */
  public static final SlurmExit NONE = new SlurmExit(0, 0);

  /** Validates the ranges. */
  public SlurmExit {
    if (code < 0 || code > 255 || signal < 0 || signal > 127) {
      throw new IllegalArgumentException("exit code must be 0..255 and signal 0..127 but were " + code + ":" + signal);
    }
  }

  /** Decodes a raw wait status such as squeue's {@code exit_code} (768 is exit 3, 9 is signal 9). */
  public static SlurmExit fromWaitStatus(long status) {
    return new SlurmExit((int) ((status >> 8) & 0xff), (int) (status & 0x7f));
  }

  /**
   * Parses sacct's and scontrol's {@code "code:signal"} form, e.g. {@code "3:0"} or {@code "0:9"}.
   *
   * @throws IllegalArgumentException for any other text
   */
  public static SlurmExit parse(String text) {
    String s = text == null ? "" : text.strip();
    int colon = s.indexOf(':');
    try {
      if (colon > 0) {
        return new SlurmExit(Integer.parseInt(s.substring(0, colon)), Integer.parseInt(s.substring(colon + 1)));
      }
      return new SlurmExit(Integer.parseInt(s), 0);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not an exit code such as 3:0", e);
    }
  }

  /** The exit code a local process would have had: the code, or 128 + the signal. */
  public int asExitCode() {
    return signal > 0 ? 128 + signal : code;
  }

  @Override
  public String toString() {
    return code + ":" + signal;
  }
}

package dev.berth.protocol;

/** A command Berth sends to a task process. */
public sealed interface ControlCommand {

  /** The command's {@code type} on the wire: {@code load}, {@code train} or {@code exit}. */
  String type();

  /** Start the load stage. */
  record Load() implements ControlCommand {
    @Override
    public String type() {
      return "load";
    }
  }

  /**
   * Start the train stage on a device.
   *
   * @param device the physical device, {@code cuda:N} or {@code cpu}
   */
  record Train(String device) implements ControlCommand {
    /** Rejects a blank device. */
    public Train {
      if (device == null || device.isBlank()) {
        throw new IllegalArgumentException("train needs a device, such as cuda:0 or cpu");
      }
    }

    @Override
    public String type() {
      return "train";
    }
  }

  /** Exit the process; sent when the task waits for a command. */
  record Exit() implements ControlCommand {
    @Override
    public String type() {
      return "exit";
    }
  }

  /** The {@code load} command. */
  static ControlCommand load() {
    return new Load();
  }

  /** The {@code train} command for {@code device}. */
  static ControlCommand train(String device) {
    return new Train(device);
  }

  /** The {@code exit} command. */
  static ControlCommand exit() {
    return new Exit();
  }
}

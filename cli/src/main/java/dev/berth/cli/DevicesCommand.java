package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuProcess;
import dev.berth.core.units.ByteSize;
import dev.berth.session.MachineProbes;
import dev.berth.spi.GpuProbe;
import dev.berth.spi.SharedReservationsException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/** {@code berth devices}: lists the GPUs Berth would use, with memory, utilization and processes. */
final class DevicesCommand implements BerthCommand {

  private static final Option JSON = Option.flag("--json", "Print JSON instead of a table.");

  private final Function<DeviceSelection, GpuProbe> probes;
  private final UnaryOperator<String> env;

  /** The command with the real probes, naming who holds what from this host's ledger. */
  DevicesCommand() {
    this(MachineProbes::gpus, System::getenv);
  }

  /** The command with another way to turn a selection into a probe and no host ledger (tests). */
  DevicesCommand(Function<DeviceSelection, GpuProbe> probes) {
    this(probes, null);
  }

  /**
   * The command with another way to turn a selection into a probe, and the environment naming the
   * host folder (or null to name nobody).
   */
  DevicesCommand(Function<DeviceSelection, GpuProbe> probes, UnaryOperator<String> env) {
    this.probes = Objects.requireNonNull(probes, "probes");
    this.env = env;
  }

  @Override
  public CommandSyntax syntax() {
    CommandSyntax.Builder syntax = CommandSyntax.describedAs("List the GPUs Berth sees: memory, utilization, what"
        + " every Berth run on the host reserved, and compute processes with their user and Berth run (or not Berth).");
    GpuOption.declare(syntax);
    return syntax.options(JSON).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) {
    GpuOption gpuOption = new GpuOption(args);
    boolean json = args.flag(JSON);
    GpuProbe probe;
    try {
      probe = probes.apply(gpuOption.selection());
    } catch (IllegalArgumentException e) {
      err.println("berth: --gpus: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    try (probe) {
      List<GpuDevice> devices = probe.read();
      GpuOwners owners = GpuOwners.NONE;
      if (env != null) {
        try {
          owners = GpuOwners.read(env, gpuOption.selection(), devices);
        } catch (SharedReservationsException | IllegalArgumentException e) {
          err.println("berth: warning: " + e.getMessage());
        }
      }
      out.print(json
          ? DeviceTable.json(probe.source(), probe.lastError(), devices, owners.reserved(), owners::owner)
          : "task containment: " + MachineProbes.taskContainment() + "\n"
              + "task start: " + MachineProbes.taskStart() + "\n"
              + DeviceTable.render(probe.source(), probe.lastError(), devices, owners.reserved(), owners::owner));
      out.flush();
    }
    return ExitCodes.OK;
  }

  /**
   * Renders a GPU reading as text, like gpustat: one line per device with its memory, utilization,
   * what Berth reserved on it and its compute processes. Pure; lines end with {@code \n}.
   */
  static final class DeviceTable {

    private DeviceTable() {}

    /**
     * The table, preceded by a line naming the count and the source and followed by a warning when
     * the reading was incomplete; {@code no GPUs found (source: ...)} when there are none.
     *
     * @param source the probe's source
     * @param error the probe's last error, if any
     * @param devices the reading
     * @param reservedBytes GPU memory Berth has reserved, by device index (absent: 0)
     */
    static String render(String source, Optional<String> error, List<GpuDevice> devices, Map<Integer, Long> reservedBytes) {
      return render(source, error, devices, reservedBytes, pid -> Optional.empty());
    }

    /** {@link #render(String, Optional, List, Map)}, naming each process's user and Berth run (or foreign) when known. */
    static String render(String source, Optional<String> error, List<GpuDevice> devices, Map<Integer, Long> reservedBytes,
        Function<Long, Optional<GpuOwners.Owner>> owners) {
      StringBuilder text = new StringBuilder();
      if (devices.isEmpty()) {
        text.append("no GPUs found (source: ").append(source).append(")\n");
        error.ifPresent(e -> text.append("  why: ").append(e).append('\n'));
        return text.toString();
      }
      text.append(devices.size()).append(devices.size() == 1 ? " GPU" : " GPUs")
          .append(" (source: ").append(source).append(")\n");
      List<String[]> rows = new ArrayList<>();
      rows.add(new String[] {"GPU", "NAME", "MEMORY USED / TOTAL", "UTIL", "BERTH RESERVED", "PROCESSES"});
      for (GpuDevice d : devices) {
        rows.add(new String[] {
            d.id(),
            (d.name().isEmpty() ? "(unnamed)" : d.name()) + (d.simulated() ? " (simulated)" : ""),
            memory(d),
            d.utilizationKnown() ? Math.round(d.utilization() * 100) + "%" : "n/a",
            ByteSize.format(reservedBytes.getOrDefault(d.index(), 0L)),
            processes(d.processes(), owners)});
      }
      boolean[] rightAligned = {false, false, false, true, false, false};
      appendTable(text, rows, rightAligned);
      error.ifPresent(e -> text.append("warning: ").append(e).append('\n'));
      return text.toString();
    }

    /**
     * The reading as JSON: {@code source}, {@code error} (null when none) and {@code devices}, one
     * object per line with sizes in bytes, utilization as a fraction (null when unknown) and
     * processes with {@code pid} and {@code memoryBytes} (null when unknown).
     */
    static String json(String source, Optional<String> error, List<GpuDevice> devices, Map<Integer, Long> reservedBytes) {
      return json(source, error, devices, reservedBytes, pid -> Optional.empty());
    }

    /**
     * {@link #json(String, Optional, List, Map)}; a process whose owner is known also has {@code user}
     * and {@code berthRun} (null for a foreign process).
     */
    static String json(String source, Optional<String> error, List<GpuDevice> devices, Map<Integer, Long> reservedBytes,
        Function<Long, Optional<GpuOwners.Owner>> owners) {
      StringBuilder text = new StringBuilder("{\n");
      text.append("  \"source\": ").append(string(source)).append(",\n");
      text.append("  \"error\": ").append(error.map(DeviceTable::string).orElse("null")).append(",\n");
      text.append("  \"devices\": [");
      for (int i = 0; i < devices.size(); i++) {
        GpuDevice d = devices.get(i);
        text.append(i == 0 ? "\n" : ",\n").append("    {")
            .append("\"id\": ").append(string(d.id()))
            .append(", \"index\": ").append(d.index())
            .append(", \"uuid\": ").append(string(d.uuid()))
            .append(", \"name\": ").append(string(d.name()))
            .append(", \"simulated\": ").append(d.simulated())
            .append(", \"memoryTotalBytes\": ").append(d.totalMemoryBytes())
            .append(", \"memoryUsedBytes\": ").append(d.usedMemoryBytes())
            .append(", \"memoryFreeBytes\": ").append(d.freeMemoryBytes())
            .append(", \"berthReservedBytes\": ").append(reservedBytes.getOrDefault(d.index(), 0L))
            .append(", \"utilization\": ").append(d.utilizationKnown() ? Double.toString(d.utilization()) : "null")
            .append(", \"processes\": [")
            .append(d.processes().stream()
                .map(p -> "{\"pid\": " + p.pid() + ", \"memoryBytes\": "
                    + (p.usedMemoryKnown() ? Long.toString(p.usedMemoryBytes()) : "null")
                    + owners.apply(p.pid()).map(o -> ", \"user\": " + string(o.user()) + ", \"berthRun\": "
                        + o.run().map(DeviceTable::string).orElse("null")).orElse("") + "}")
                .collect(Collectors.joining(", ")))
            .append("]}");
      }
      text.append(devices.isEmpty() ? "]\n" : "\n  ]\n").append("}\n");
      return text.toString();
    }

    private static String memory(GpuDevice d) {
      String percent = d.totalMemoryBytes() == 0
          ? "-"
          : Math.round(100.0 * d.usedMemoryBytes() / d.totalMemoryBytes()) + "%";
      return ByteSize.format(d.usedMemoryBytes()) + " / " + ByteSize.format(d.totalMemoryBytes()) + " (" + percent + ")";
    }

    private static String processes(List<GpuProcess> processes, Function<Long, Optional<GpuOwners.Owner>> owners) {
      if (processes.isEmpty()) {
        return "-";
      }
      return processes.stream()
          .map(p -> {
            String memory = p.usedMemoryKnown() ? ByteSize.format(p.usedMemoryBytes()) : "n/a";
            return owners.apply(p.pid())
                .map(o -> p.pid() + " " + o.user() + " (" + memory + ", " + o.run().map(r -> "run " + r)
                    .orElse("not Berth") + ")")
                .orElse(p.pid() + " (" + memory + ")");
          })
          .collect(Collectors.joining(", "));
    }

    private static void appendTable(StringBuilder text, List<String[]> rows, boolean[] rightAligned) {
      int columns = rows.get(0).length;
      int[] widths = new int[columns];
      for (String[] row : rows) {
        for (int c = 0; c < columns; c++) {
          widths[c] = Math.max(widths[c], row[c].length());
        }
      }
      for (String[] row : rows) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < columns; c++) {
          if (c > 0) {
            line.append("  ");
          }
          String format = "%" + (rightAligned[c] ? "" : "-") + widths[c] + "s";
          line.append(c == columns - 1 && !rightAligned[c] ? row[c] : String.format(Locale.ROOT, format, row[c]));
        }
        text.append(line.toString().stripTrailing()).append('\n');
      }
    }

    /** A JSON string literal. */
    static String string(String value) {
      StringBuilder s = new StringBuilder("\"");
      for (char ch : value.toCharArray()) {
        switch (ch) {
          case '"' -> s.append("\\\"");
          case '\\' -> s.append("\\\\");
          case '\n' -> s.append("\\n");
          case '\r' -> s.append("\\r");
          case '\t' -> s.append("\\t");
          default -> {
            if (ch < 0x20) {
              s.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
            } else {
              s.append(ch);
            }
          }
        }
      }
      return s.append('"').toString();
    }
  }
}

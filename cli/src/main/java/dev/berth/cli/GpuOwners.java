package dev.berth.cli;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuDevices;
import dev.berth.session.HostRuns;
import dev.berth.spi.SharedReservations.Reservation;
import dev.berth.spi.SharedReservations.RunEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Who is behind what {@code berth devices} shows: the GPU memory every Berth run on the host has
 * reserved on each device (from the host ledger), and for each compute process its user and the
 * Berth run it belongs to, if any (a process whose parents lead to no Berth run is foreign).
 */
final class GpuOwners {

  /** A compute process's user and, for a Berth task's process, its run's name. */
  record Owner(String user, Optional<String> run) {}

  /** Knows nobody: no reservations, no owners (for tests of the table alone). */
  static final GpuOwners NONE = new GpuOwners(Map.of(), Map.of(), false);

  private final Map<Integer, Long> reserved;
  private final Map<Long, String> runsByPid;
  private final boolean lookUp;

  private GpuOwners(Map<Integer, Long> reserved, Map<Long, String> runsByPid, boolean lookUp) {
    this.reserved = reserved;
    this.runsByPid = runsByPid;
    this.lookUp = lookUp;
  }

  /** Reads the host ledger in the host folder {@code env} names (nothing when no run ever took part there). */
  static GpuOwners read(UnaryOperator<String> env, DeviceSelection selection, List<GpuDevice> devices) {
    Map<Integer, Long> reserved = new TreeMap<>();
    Map<Long, String> runsByPid = new TreeMap<>();
    for (RunEntry run : HostRuns.read(HostRuns.folder(env), false, Instant.now())) {
      runsByPid.put(run.pid(), run.name());
      for (Reservation r : run.reservations()) {
        devices.stream().filter(d -> GpuDevices.sharedKey(selection.toString(), d).equals(r.key()))
            .forEach(d -> reserved.merge(d.index(), r.bytes(), Long::sum));
      }
    }
    return new GpuOwners(reserved, runsByPid, true);
  }

  /** GPU memory Berth runs reserved, by device index. */
  Map<Integer, Long> reserved() {
    return reserved;
  }

  /** Who runs this process; empty when unknown (it ended, or this lookup knows nobody). */
  Optional<Owner> owner(long pid) {
    if (!lookUp) {
      return Optional.empty();
    }
    String user;
    try {
      user = Files.getOwner(Path.of("/proc", Long.toString(pid))).getName();
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.empty();
    }
    Optional<ProcessHandle> h = ProcessHandle.of(pid);
    while (h.isPresent()) {
      String run = runsByPid.get(h.get().pid());
      if (run != null) {
        return Optional.of(new Owner(user, Optional.of(run)));
      }
      h = h.get().parent();
    }
    return Optional.of(new Owner(user, Optional.empty()));
  }
}

package dev.berth.runtime.engine;

import dev.berth.runtime.contain.Leftovers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The processes a resuming run looks through for the task processes an earlier Berth of the run
 * left running, and ends what those tasks' children left: this machine's ({@link #LOCAL}), or a
 * stand-in that models a machine, so that a resume after a crash can be exercised without real
 * processes.
 */
public interface ProcessTable {

  /** This machine's processes, as {@link ProcessHandle} sees them, with their variables from {@code /proc}. */
  ProcessTable LOCAL = new ProcessTable() {
    @Override
    public Stream<ProcessHandle> all() {
      return ProcessHandle.allProcesses();
    }

    @Override
    public Optional<ProcessHandle> of(long pid) {
      return ProcessHandle.of(pid);
    }

    @Override
    public Optional<List<String>> commandLine(long pid) {
      try {
        byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
        return Optional.of(List.of(new String(raw, StandardCharsets.UTF_8).split("\0")));
      } catch (IOException | SecurityException e) {
        return Optional.empty();
      }
    }

    @Override
    public Optional<Map<String, String>> berthVariables(long pid) {
      Path file = Path.of("/proc", Long.toString(pid), "environ");
      try {
        String raw = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        Map<String, String> env = new HashMap<>();
        for (String entry : raw.split("\0")) {
          int eq = entry.indexOf('=');
          if (eq > 0 && entry.startsWith("BERTH_")) {
            env.put(entry.substring(0, eq), entry.substring(eq + 1));
          }
        }
        return Optional.of(env);
      } catch (IOException | SecurityException e) {
        return Optional.empty();
      }
    }

    @Override
    public void endLeftovers(List<String> all, List<String> none, Collection<Path> groups) {
      Leftovers.end(all, none, groups);
    }
  };

  /** Every process that exists now. */
  Stream<ProcessHandle> all();

  /** The process with this pid, when it exists. */
  Optional<ProcessHandle> of(long pid);

  /** The process's argument vector; empty when it cannot be read. */
  Optional<List<String>> commandLine(long pid);

  /** The process's variables whose names start with {@code BERTH_}; empty when they cannot be read. */
  Optional<Map<String, String>> berthVariables(long pid);

  /**
   * Kills what tasks left running once no Berth keeps their containers: every process whose
   * variables hold each of {@code all} and none of {@code none} (entries {@code NAME=value}), with
   * the members of {@code groups} and of the dead Berths' task groups those processes are in, as
   * {@link Leftovers#end} does on this machine.
   */
  void endLeftovers(List<String> all, List<String> none, Collection<Path> groups);
}

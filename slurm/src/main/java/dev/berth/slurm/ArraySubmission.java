package dev.berth.slurm;

import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Tasks submitted together as one Slurm job array, element {@code i} running {@code elements.get(i)}.
 * All elements ask for the same resources.
 *
 * @param name the array's name; the job is named {@code <run>.<name>}
 * @param elements one request per element, each with its own working directory and output files
 * @param resources what each element asks for
 * @param maxRunning the most elements running at once ({@code %K} in {@code --array}); 0 for no limit
 * @param folder a folder on the shared filesystem for the array's script and Slurm's own messages
 * @param after a dependency of the whole array, if any
 */
public record ArraySubmission(
    String name, List<LaunchRequest> elements, SlurmResources resources, int maxRunning, Path folder,
    Optional<JobDependency> after) {

  /** Validates and copies. */
  public ArraySubmission {
    Objects.requireNonNull(name, "name");
    elements = List.copyOf(elements);
    if (elements.isEmpty()) {
      throw new IllegalArgumentException("an array needs at least one element");
    }
    Objects.requireNonNull(resources, "resources");
    if (maxRunning < 0) {
      throw new IllegalArgumentException("maxRunning must be >= 0 but was " + maxRunning);
    }
    Objects.requireNonNull(folder, "folder");
    Objects.requireNonNull(after, "after");
  }
}

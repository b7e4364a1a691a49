package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlurmCommandsTest {

  @TempDir Path dir;

  private Path folderWith(String name, String... programs) throws IOException {
    Path folder = Files.createDirectories(dir.resolve(name));
    for (String program : programs) {
      Path file = Files.writeString(folder.resolve(program), "#!/bin/sh\n");
      assertThat(file.toFile().setExecutable(true)).isTrue();
    }
    return folder;
  }

  @Test
  void aMachineWithEverySlurmCommandOnItsPathCanRunTheExecutor() throws IOException {
    String path = folderWith("a", "sbatch", "squeue") + File.pathSeparator + folderWith("b", "sacct", "scancel");

    assertThat(SlurmExecutor.unusableHere(path)).isEmpty();
  }

  @Test
  void theMissingCommandsAreNamed() throws IOException {
    String path = folderWith("a", "squeue", "sacct").toString();

    assertThat(SlurmExecutor.unusableHere(path)).hasValueSatisfying(why -> assertThat(why)
        .startsWith("executor slurm needs sbatch, squeue, sacct and scancel on the PATH, but sbatch, scancel cannot"));
  }

  @Test
  void aFileThatIsNotExecutableDoesNotCount() throws IOException {
    Path folder = folderWith("a", "squeue", "sacct", "scancel");
    Files.writeString(folder.resolve("sbatch"), "not a program");

    assertThat(SlurmExecutor.unusableHere(folder.toString())).hasValueSatisfying(why -> assertThat(why)
        .contains("but sbatch cannot be found"));
  }
}

package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What of scripts/gpu-proof.sh runs without a GPU: its Python tests (the allocator against a
 * stand-in driver, the sizes, checks and table on recorded inputs), the specs it writes, read by
 * Berth's own spec loader for a 141 GiB and a 24 GiB card, and the script's syntax.
 */
class GpuProofScriptTest {

  private static final Path REPO = Path.of("").toAbsolutePath().getParent();
  private static final Path PROOF = REPO.resolve("scripts/gpu_proof");
  private static final List<String> PARTS = List.of("packing", "foreign", "oom-one", "oom-two", "learning");
  /** The variable that makes the allocator use its stand-in driver; the Python tests choose it themselves. */
  private static final String FAKE_CUDA = "BERTH_PROOF_FAKE_CUDA";

  @TempDir Path dir;

  @Test
  void theProofsPythonTestsPassWithoutAGpu() throws Exception {
    assumeTrue(Programs.onPath("python3"), "python3 is needed for this test");

    Result tests = run(REPO, "python3", "-B", "-m", "unittest", "discover", "-s", PROOF.toString(), "-p", "test_*.py");

    assertThat(tests.exitCode).as(tests.output).isZero();
    assertThat(tests.output).contains("OK");
  }

  @ParameterizedTest
  @ValueSource(strings = {"h200.query-gpu.csv", "rtx3090-2x.query-gpu.csv:1"})
  void everySpecTheProofWritesIsOneBerthAccepts(String recording) throws Exception {
    assumeTrue(Programs.onPath("python3"), "python3 is needed for this test");
    String[] fileAndIndex = recording.split(":");
    String index = fileAndIndex.length > 1 ? fileAndIndex[1] : "0";
    Result plan = run(dir, "python3", "-B", PROOF.resolve("proof.py").toString(), "plan",
        PROOF.resolve("test_data").resolve(fileAndIndex[0]).toString(), index, dir.toString());
    assertThat(plan.exitCode).as(plan.output).isZero();

    for (String part : PARTS) {
      Result spec = run(dir, "python3", "-B", PROOF.resolve("proof.py").toString(), "spec", dir.toString(), part,
          PROOF.resolve("cuda_hold.py").toString());
      assertThat(spec.exitCode).as(spec.output).isZero();
      Path file = dir.resolve(part + ".yaml");
      Files.writeString(file, spec.output);

      CliRunner validate = CliRunner.berth("validate", file.toString());

      assertThat(validate.exitCode).as(part + ":\n" + spec.output + validate.err).isZero();
      assertThat(validate.out).contains("spec OK");
    }
  }

  @Test
  void theScriptIsValidBash() throws Exception {
    assumeTrue(Programs.onPath("bash"), "bash is needed for this test");

    Result syntax = run(REPO, "bash", "-n", REPO.resolve("scripts/gpu-proof.sh").toString());

    assertThat(syntax.exitCode).as(syntax.output).isZero();
  }

  private record Result(int exitCode, String output) {}

  private static Result run(Path where, String... command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(List.of(command))).directory(where.toFile())
        .redirectErrorStream(true);
    builder.environment().put("PYTHONDONTWRITEBYTECODE", "1"); // keep the source tree clean
    builder.environment().remove(FAKE_CUDA);
    Process process = builder.start();
    byte[] output = process.getInputStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command) + " ended").isTrue();
    return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
  }
}

package dev.berth.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A secret Berth read from a variable is blanked where its tasks could read it: its own
 * {@code /proc/PID/environ}. Run in a JVM of its own, started with the secret in its environment.
 */
class OwnEnvironmentTest {

  private static final String SECRET = "hunter2-from-the-environment";

  /** The JVM the test starts: blanks the variable, then a child reads its parent's environ as a task would. */
  public static void main(String[] args) throws Exception {
    Set<String> left = OwnEnvironment.blank(List.of("BERTH_TEST_SECRET", "BERTH_TEST_UNSET"));
    Process task = new ProcessBuilder("sh", "-c", "cat /proc/$PPID/environ | tr '\\0' '\\n'")
        .redirectErrorStream(true).start();
    String seen = new String(task.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    task.waitFor();
    System.out.println("left=" + left);
    System.out.println("java=" + System.getenv("BERTH_TEST_SECRET"));
    System.out.println("other=" + System.getenv("BERTH_TEST_OTHER"));
    System.out.println("task-saw-secret=" + seen.contains(SECRET));
    System.out.println("task-saw-other=" + seen.contains("BERTH_TEST_OTHER=kept"));
  }

  @Test
  void aVariablesValueIsBlankedInTheProcessEnvironOthersReadWhileTheJvmStillKnowsIt() throws Exception {
    assumeTrue(Files.isReadable(Path.of("/proc/self/environ")), "Linux's /proc");
    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), OwnEnvironmentTest.class.getName()).redirectErrorStream(true);
    pb.environment().put("BERTH_TEST_SECRET", SECRET);
    pb.environment().put("BERTH_TEST_OTHER", "kept");
    Process jvm = pb.start();
    String out = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(jvm.waitFor()).as(out).isZero();
    assertThat(out).contains("left=[]\n", "java=" + SECRET + "\n", "other=kept\n", "task-saw-secret=false\n",
        "task-saw-other=true\n");
  }
}

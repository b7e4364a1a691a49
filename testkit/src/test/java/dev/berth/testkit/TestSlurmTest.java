package dev.berth.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestSlurmTest {

  private final List<List<String>> calls = new ArrayList<>();

  /** A Slurm that answers as a cluster named {@code name} with one node in {@code state}. */
  private TestSlurm.Command cluster(String name, String state) {
    return argv -> {
      calls.add(argv);
      return Optional.of(argv.get(0).equals("scontrol") ? "Configuration data as of now\nClusterName             = "
          + name + "\nControlMachine = x\n" : state + "\n");
    };
  }

  @Test
  void withoutTheVariableNoSlurmCommandRunsAtAllEvenWhereAClusterAnswers() {
    String why = TestSlurm.check(Map.<String, String>of()::get, cluster("production", "idle"));

    assertThat(why).contains(TestSlurm.VARIABLE).contains("skipped");
    assertThat(calls).isEmpty();
  }

  @Test
  void aClusterOfAnotherNameIsNotUsedAndNoJobReachesIt() {
    String why = TestSlurm.check(Map.of(TestSlurm.VARIABLE, "localcluster")::get, cluster("production", "idle"));

    assertThat(why).contains("'production'").contains("'localcluster'");
    assertThat(calls).extracting(argv -> argv.get(0)).containsExactly("scontrol");
  }

  @Test
  void theNamedClusterWithAUsableNodeIsUsed() {
    assertThat(TestSlurm.check(Map.of(TestSlurm.VARIABLE, "localcluster")::get, cluster("localcluster", "mix")))
        .isEmpty();
  }

  @Test
  void theNamedClusterWithNoUsableNodeIsNot() {
    assertThat(TestSlurm.check(Map.of(TestSlurm.VARIABLE, "localcluster")::get, cluster("localcluster", "down*")))
        .contains("down*");
  }

  @Test
  void aNamedClusterThatDoesNotAnswerIsNotUsed() {
    assertThat(TestSlurm.check(Map.of(TestSlurm.VARIABLE, "localcluster")::get, argv -> Optional.empty()))
        .contains("does not answer");
  }
}

package dev.berth.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
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

  @Test
  void onlyJobsWorkingInATestsTemporaryFolderAreClearedArraysByTheirOwnId() {
    String squeue = """
        101|/tmp/junit4711/a
        102_[1-3%1]|/tmp/junit-99/sweep
        102_0|/tmp/junit-99/sweep
        103|/home/ada/experiments
        104|/tmp/other
        """;

    assertThat(TestSlurm.testJobs(squeue, Path.of("/tmp/junit"))).as("an array by its own id, once")
        .containsExactly("101", "102");
  }
}

package dev.berth.slurm;

import static dev.berth.slurm.Recordings.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.os.CommandRunner.Result;
import dev.berth.os.CommandRunner;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlurmJobsTest {

  @Test
  void squeuesAnswerGivesTheStatesOfTheJobsAskedAbout() {
    assertThat(SlurmJobs.fromSqueue(read("squeue-finished.txt"), List.of("13", "15_2", "10", "999")))
        .containsExactly(Map.entry("10", "TIMEOUT"), Map.entry("13", "CANCELLED"), Map.entry("15_2", "FAILED"));
  }

  @Test
  void saccsAnswerGivesTheStatesWithoutWhoCancelled() {
    assertThat(SlurmJobs.fromSacct(read("sacct-finished.txt"), List.of("16", "15_1")))
        .containsExactly(Map.entry("15_1", "FAILED"), Map.entry("16", "CANCELLED"));
  }

  @Test
  void oneSqueueCallAnswersAndSacctIsAskedOnlyAboutTheJobsSqueueForgot() throws Exception {
    Scripted runner = new Scripted(Result.exited(0, "23_0|23|RUNNING|None|0|run.m\n23_1|23|PENDING|JobArrayTaskLimit|0|run.m\n"),
        Result.exited(0, "12|12|COMPLETED|0:0|00:00:01||256M|None\n"));

    assertThat(SlurmJobs.states(runner, List.of("23_1", "12", "23_0", "77")))
        .containsExactly(Map.entry("12", "COMPLETED"), Map.entry("23_0", "RUNNING"), Map.entry("23_1", "PENDING"));
    assertThat(runner.calls).containsExactly(SqueueOutput.command(List.of("12", "23", "77")),
        SacctOutput.command(List.of("12", "77")));
  }

  @Test
  void whenSqueueKnowsNoneOfTheJobsSacctIsAskedAboutAll() throws Exception {
    Scripted runner = new Scripted(new Result(1, "", read("squeue-error-unknown-id.txt"), false),
        Result.exited(0, "12|12|FAILED|3:0|00:00:02||256M|None\n"));

    assertThat(SlurmJobs.states(runner, List.of("12"))).containsExactly(Map.entry("12", "FAILED"));
  }

  @Test
  void withoutAccountingTheForgottenJobsAreLeftOut() throws Exception {
    Scripted runner = new Scripted(Result.exited(0, "23_0|23|RUNNING|None|0|run.m\n"));

    assertThat(SlurmJobs.states(runner, List.of("23_0", "12"))).containsExactly(Map.entry("23_0", "RUNNING"));
  }

  @Test
  void aFailingSqueueIsAnErrorAndNoIdsAskNothing() throws Exception {
    Scripted down = new Scripted(new Result(1, "", "slurm_load_jobs error: Unable to contact slurm controller\n", false));

    assertThatThrownBy(() -> SlurmJobs.states(down, List.of("12"))).isInstanceOf(IOException.class)
        .hasMessage("squeue exited with 1: slurm_load_jobs error: Unable to contact slurm controller");
    Scripted idle = new Scripted();
    assertThat(SlurmJobs.states(idle, List.of())).isEmpty();
    assertThat(idle.calls).isEmpty();
    assertThatThrownBy(() -> SlurmJobs.states(idle, List.of("job-12"))).isInstanceOf(IllegalArgumentException.class);
  }

  /** Answers each call with the next result; with none left, the program is missing. */
  private static final class Scripted implements CommandRunner {
    final List<List<String>> calls = new ArrayList<>();
    private final List<Result> answers;

    Scripted(Result... answers) {
      this.answers = new ArrayList<>(List.of(answers));
    }

    @Override
    public Result run(List<String> argv, Duration timeout) throws IOException {
      calls.add(argv);
      if (answers.isEmpty()) {
        throw new IOException("Cannot run program \"" + argv.get(0) + "\"");
      }
      return answers.remove(0);
    }
  }
}

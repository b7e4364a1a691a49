package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Inputs that would take Berth minutes or all its memory are refused before they are parsed. */
class SpecLimitsTest {

  @TempDir Path dir;

  private static final String TASKS = "- {id: a, command: [x]}";

  @Test
  @EnabledOnOs(OS.LINUX)
  void aDeviceThatNeverEndsIsNotASpec() {
    SpecException e = catchThrowableOfType(SpecException.class, () -> SpecLoader.load(Path.of("/dev/zero"), null, List.of()));

    assertThat(e.getMessage()).isEqualTo("/dev/zero: is not a regular file (a device, a pipe or a socket); name a YAML file");
  }

  @Test
  void aSpecLargerThanSixteenMebibytesIsRefusedNamingTheLimit() throws IOException {
    Path spec = Files.writeString(dir.resolve("huge.yaml"), SpecFiles.oneGroup(TASKS) + "\n# x\n".repeat((16 << 20) / 5 + 1));

    SpecException e = catchThrowableOfType(SpecException.class, () -> SpecLoader.load(spec, null, List.of()));

    assertThat(e.getMessage()).isEqualTo(spec + ": is larger than 16 MiB, the most Berth reads;"
        + " a spec names its tasks with a matrix instead of listing each one");
  }

  @Test
  void aLineLongerThanAMebibyteIsRefusedNamingIt() throws IOException {
    Path spec = Files.writeString(dir.resolve("long.yaml"), "# " + "a".repeat(3 << 20) + "\n" + SpecFiles.oneGroup(TASKS));

    SpecException e = catchThrowableOfType(SpecException.class, () -> SpecLoader.load(spec, null, List.of()));

    assertThat(e.getMessage()).startsWith(spec + ": line 1: is longer than 1048576 characters");
  }

  @Test
  void aSpecBetweenTheParsersOldLimitAndBerthsIsRead() throws IOException, SpecException {
    // SnakeYAML's own default refuses documents over 3 Mi code points, with a confusing message.
    Path spec = Files.writeString(dir.resolve("big.yaml"), SpecFiles.oneGroup(TASKS) + "\n# padding\n".repeat(400_000));

    assertThat(SpecLoader.load(spec, null, List.of()).tasks()).hasSize(1);
  }

  @Test
  void aTaskIdLongerThanAFolderNameCanHoldIsRefusedByValidateNamingTheTask() {
    Path spec = SpecFiles.write(dir, "spec.yaml", SpecFiles.oneGroup("- {id: " + "a".repeat(300) + ", command: [x]}"));

    SpecException e = catchThrowableOfType(SpecException.class, () -> SpecLoader.load(spec, null, List.of()));

    assertThat(e.getMessage()).isEqualTo(spec + ": groups[0].tasks[0].id: '" + "a".repeat(40) + "…' is 300 characters"
        + " long; a task id names the task's folder, which holds at most 255");
  }

  @Test
  void anIdOf255CharactersIsAccepted() throws SpecException {
    Path spec = SpecFiles.write(dir, "spec.yaml", SpecFiles.oneGroup("- {id: " + "a".repeat(255) + ", command: [x]}"));

    assertThat(SpecLoader.load(spec, null, List.of()).tasks()).hasSize(1);
  }

  @Test
  void anIdWithControlCharactersIsRefusedOnOneLineWithThemEscaped() {
    Path spec = SpecFiles.write(dir, "spec.yaml", SpecFiles.oneGroup("- {id: \"a\\nb\\u001b\", command: [x]}"));

    SpecException e = catchThrowableOfType(SpecException.class, () -> SpecLoader.load(spec, null, List.of()));

    assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("\u001b")
        .startsWith(spec + ": groups[0].tasks[0].id: 'a\\nb\\u001b' is not a valid task id");
  }

  @Test
  void aRunOfMillionsOfTasksIsRefusedWithTheirCountBeforeAnyMatrixIsExpanded() {
    StringBuilder entries = new StringBuilder();
    String a = String.join(", ", java.util.stream.IntStream.range(0, 330).mapToObj(String::valueOf).toList());
    String b = String.join(", ", java.util.stream.IntStream.range(0, 300).mapToObj(String::valueOf).toList());
    for (int k = 0; k < 100; k++) {
      entries.append("- {id: \"t").append(k).append("-{a}-{b}\", command: [x], matrix: {a: [").append(a)
          .append("], b: [").append(b).append("]}}\n");
    }
    Path spec = SpecFiles.write(dir, "spec.yaml", SpecFiles.oneGroup(entries.toString()));

    SpecException e = catchThrowableOfType(SpecException.class, () -> SpecLoader.load(spec, null, List.of()));

    assertThat(e.getMessage()).isEqualTo(spec + ": groups: the run expands to 9,900,000 tasks, over the limit of"
        + " 1,000,000 (scheduler.max-tasks); split it into several runs, or raise scheduler.max-tasks");
  }

  @Test
  void theRunWideLimitCountsEveryGroupAndIsSetLikeAnyConfigKey() throws SpecException {
    String groups = """
        name: run
        config: {scheduler: {max-tasks: %d}}
        groups:
          - name: a
            tasks:
              - {id: "a-{i}", command: [x], matrix: {i: [1, 2, 3]}}
          - name: b
            tasks:
              - {id: "b-{i}-{j}", command: [x], matrix: {i: [1, 2], j: [1, 2]}}
              - {id: c, command: [x]}
        """;
    Path over = SpecFiles.write(dir, "over.yaml", groups.formatted(7));
    Path at = SpecFiles.write(dir, "at.yaml", groups.formatted(8));

    SpecException e = catchThrowableOfType(SpecException.class, () -> SpecLoader.load(over, null, List.of()));

    assertThat(e.getMessage()).isEqualTo(over + ": groups: the run expands to 8 tasks, over the limit of 7"
        + " (scheduler.max-tasks); split it into several runs, or raise scheduler.max-tasks");
    assertThat(SpecLoader.load(at, null, List.of()).tasks()).hasSize(8);
    assertThat(SpecLoader.load(over, null, List.of("scheduler.max-tasks=8")).tasks()).hasSize(8);
  }
}

package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code berth completion bash|zsh}: scripts the shells accept, completing from the commands' own tables. */
class CompletionCommandTest {

  @TempDir Path dir;
  private Path bashScript;

  @BeforeEach
  void writeTheBashScript() throws IOException {
    CliRunner completion = CliRunner.berth("completion", "bash");
    assertThat(completion.exitCode).as(completion.err).isZero();
    bashScript = Files.writeString(dir.resolve("berth.bash"), completion.out);
  }

  @Test
  void theBashScriptNamesEveryCommandAndTheirOptionsAndBashReadsIt() throws Exception {
    String script = Files.readString(bashScript);

    assertThat(script).contains(Commands.NAMES)
        .contains("--no-progress", "--host-ledger", "--on-exit", "--json", "--efficiency", "--public-read")
        .contains("complete -F _berth berth");
    assertThat(shell("bash", "-n", bashScript.toString()).code).isZero();
  }

  @Test
  void theZshScriptNamesEveryCommandAndZshReadsIt() throws Exception {
    CliRunner completion = CliRunner.berth("completion", "zsh");
    Path script = Files.writeString(dir.resolve("_berth"), completion.out);

    assertThat(completion.exitCode).isZero();
    assertThat(completion.out).startsWith("#compdef berth\n").contains(Commands.NAMES)
        .contains("'--host-ledger=[", ":on|off:(on off)'", "':SPEC:_files'");
    assumeTrue(installed("zsh"), "zsh is not installed");
    Shell check = shell("zsh", "-n", script.toString());
    assertThat(check.code).as(check.out).isZero();
  }

  @Test
  void aFewLettersOfACommandCompleteToIt() throws Exception {
    assertThat(complete("berth", "ru")).containsExactly("run");
    assertThat(complete("berth", "re")).containsExactly("resume", "report", "retry");
    assertThat(complete("berth", "")).containsExactlyElementsOf(Commands.NAMES);
    assertThat(complete("berth", "--v")).containsExactly("--version");
  }

  @Test
  void aCommandOffersTheOptionsItsHelpShows() throws Exception {
    assertThat(complete("berth", "status", "--")).containsExactlyInAnyOrder("--help", "--version", "--json");
    assertThat(complete("berth", "resume", "--")).contains("--no-progress", "--host-ledger")
        .doesNotContain("--inside-allocation");
    assertThat(complete("berth", "run", "spec.yaml", "--no-p")).containsExactly("--no-progress");
  }

  @Test
  void anOptionThatListsItsValuesOffersThemWithASpaceOrAnEqualsSign() throws Exception {
    assertThat(complete("berth", "run", "--host-ledger", "")).containsExactly("on", "off");
    assertThat(complete("berth", "run", "--on-exit", "=", "c")).containsExactly("cancel");
    assertThat(complete("berth", "run", "--executor", "=")).containsExactly("local", "slurm");
    assertThat(complete("berth", "completion", "z")).containsExactly("zsh");
  }

  @Test
  void specsAndConfigsCompleteToFilesAndWorkdirsToFolders() throws Exception {
    Files.writeString(dir.resolve("quick.yaml"), "name: q\n");
    Files.createDirectories(dir.resolve("quick-out"));

    assertThat(complete("berth", "run", "q")).containsExactlyInAnyOrder("quick.yaml", "quick-out");
    assertThat(complete("berth", "run", "--workdir", "q")).containsExactly("quick-out");
    assertThat(complete("berth", "run", "--config", "=", "quick.")).containsExactly("quick.yaml");
    assertThat(complete("berth", "status", "q")).containsExactly("quick-out");
    assertThat(complete("berth", "run", "--workdir", "quick-out", "--no-progress", "quick.y"))
        .containsExactly("quick.yaml");
  }

  @Test
  void whatTheCommandTakesNoMoreOfAndFreeValuesOfferNothing() throws Exception {
    Files.writeString(dir.resolve("quick.yaml"), "name: q\n");

    assertThat(complete("berth", "run", "quick.yaml", "q")).isEmpty();
    assertThat(complete("berth", "run", "--set", "q")).isEmpty();
    assertThat(complete("berth", "run", "--serve", "=", "q")).isEmpty();
    assertThat(complete("berth", "help", "st")).containsExactly("status");
    assertThat(complete("berth", "cancel", "run-dir", "t")).isEmpty();
  }

  @Test
  void aShellOtherThanBashOrZshIsABadUsage() {
    CliRunner fish = CliRunner.berth("completion", "fish");

    assertThat(fish.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(fish.err).isEqualTo("berth: the shell must be bash or zsh, not fish (see berth completion --help)\n");
  }

  /** What the bash function offers for the last of {@code words}, typed in the test's folder. */
  private List<String> complete(String... words) throws Exception {
    List<String> args = new ArrayList<>(List.of("bash", "-c",
        "source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _berth;"
            + " for reply in \"${COMPREPLY[@]}\"; do printf '%s\\n' \"$reply\"; done",
        "bash", bashScript.toString()));
    args.addAll(List.of(words));
    Shell shell = shell(args.toArray(String[]::new));
    assertThat(shell.code).as(shell.out).isZero();
    return shell.out.lines().toList();
  }

  private record Shell(int code, String out) {}

  private Shell shell(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Shell(process.waitFor(), out);
  }

  private static boolean installed(String program) {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
        return true;
      }
    }
    return false;
  }
}

package dev.berth.cli.args;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompletionScriptTest {

  private static final Option COLOUR = Option.value("--colour", "always|never", "When to colour: [always] or never.");
  private static final Option SECRET = Option.flag("--inside", "For the tool alone.").hidden();
  private static final Option OUT = Option.value("--out", "DIR", "Where it writes.");

  private static final CommandSyntax ROOT = CommandSyntax.describedAs("A tool.").build();
  private static final Map<String, CommandSyntax> COMMANDS = new LinkedHashMap<>();

  static {
    COMMANDS.put("paint", CommandSyntax.describedAs("Paint the spec's shapes.")
        .parameter(Parameter.required("SPEC", "The spec.")).options(COLOUR, SECRET, OUT).build());
    COMMANDS.put("help", CommandSyntax.describedAs("Help.")
        .parameter(Parameter.optional("COMMAND", "The command.")).build());
  }

  @Test
  void anOptionDeclaredInATableIsOfferedWithWhatItsLabelSaysItsValueIs() {
    String bash = CompletionScript.bash("my-tool", ROOT, COMMANDS);

    assertThat(bash).contains("complete -F _my_tool my-tool\n")
        .contains("    paint)\n      options=\"--help -h --version -V --colour --out\"")
        .contains("--colour) { _my_tool_reply words always never; return; } ;;")
        .contains("--out) { _my_tool_reply dir; return; } ;;")
        .contains("positionals=(\"file\")", "    help)\n", "positionals=(\"commands\")")
        .doesNotContain("--inside");
  }

  @Test
  void theZshSpecsKeepQuotesBracketsAndColonsOfDescriptionsAsText() {
    String zsh = CompletionScript.zsh("my-tool", ROOT, COMMANDS);

    assertThat(zsh).startsWith("#compdef my-tool\n")
        .contains("'paint:Paint the spec'\\''s shapes.'")
        .contains("'--colour=[When to colour\\: \\[always\\] or never.]:always|never:(always never)'")
        .contains("'--out=[Where it writes.]:DIR:_files -/'", "':SPEC:_files'", "'::COMMAND:(paint help)'")
        .doesNotContain("--inside");
  }
}

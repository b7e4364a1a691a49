package dev.berth.cli.args;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A shell completion script for a program made of commands, written from the same
 * {@link CommandSyntax} tables the {@link Parser} reads with: the commands, each command's options
 * that the help shows, and what each value completes to ({@link ValueKind}: the choices a label
 * lists, files, folders, command names). An option added to a table is in the next script made.
 */
public final class CompletionScript {

  private CompletionScript() {}

  /**
   * The bash script: a function {@code _PROGRAM} and the {@code complete} line that binds it.
   *
   * @param program the program's name, as typed
   * @param root what the program accepts before a command ({@code --help}, {@code --version})
   * @param commands every command by name, in the order they are offered
   */
  public static String bash(String program, CommandSyntax root, Map<String, CommandSyntax> commands) {
    String function = "_" + program.replaceAll("[^A-Za-z0-9_]", "_");
    StringBuilder cases = new StringBuilder();
    bashCase(cases, "\"\"", root, List.of("commands"), false);
    commands.forEach((name, syntax) -> bashCase(cases, name, syntax,
        syntax.parameters().stream().map(p -> "\"" + bashKind(ValueKind.of(p.label()), p.label()) + "\"").toList(),
        !syntax.parameters().isEmpty() && last(syntax.parameters()).count() == Parameter.Count.REST));
    return """
        # bash completion for @PROGRAM@, written by '@PROGRAM@ completion bash' from its own command tables.
        # Load it with: source <(@PROGRAM@ completion bash)
        @FUNCTION@_reply() {
          local IFS=$'\\n'
          case "$1" in
            file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
            dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
            commands) IFS=$' \\t\\n'; COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
            words) IFS=$' \\t\\n'; COMPREPLY=($(compgen -W "${*:2}" -- "$cur")) ;;
            *) COMPREPLY=() ;;
          esac
        }

        @FUNCTION@() {
          local cur="${COMP_WORDS[COMP_CWORD]}" prev="" equals=0 cmd="" at=0 i n=0 word
          local commands="@COMMANDS@"
          local options="" valued="" rest=0
          local -a positionals=()
          COMPREPLY=()
          # bash breaks --option=value at the '=': the value's option is the word before it
          if [[ $cur == "=" ]]; then
            cur="" prev="${COMP_WORDS[COMP_CWORD-1]}" equals=1
          elif ((COMP_CWORD > 1)) && [[ ${COMP_WORDS[COMP_CWORD-1]} == "=" ]]; then
            prev="${COMP_WORDS[COMP_CWORD-2]}" equals=1
          elif ((COMP_CWORD > 0)); then
            prev="${COMP_WORDS[COMP_CWORD-1]}"
          fi
          for ((i = 1; i < COMP_CWORD; i++)); do
            case "${COMP_WORDS[i]}" in -* | =) ;; *) cmd="${COMP_WORDS[i]}" at=$i; break ;; esac
          done
          case "$cmd" in
        @CASES@    *) return ;;
          esac
          if [[ $cur == -* ]]; then
            @FUNCTION@_reply words "$options"
            return
          fi
          # which parameter the word is: count the words before it that are neither options nor their values
          for ((i = at + 1; i < COMP_CWORD; i++)); do
            word="${COMP_WORDS[i]}"
            if [[ $word == "=" ]]; then
              ((i++))
            elif [[ $word == -* ]]; then
              if [[ $valued == *" $word "* && ${COMP_WORDS[i+1]} != "=" ]]; then ((i++)); fi
            else
              ((n++))
            fi
          done
          if ((n >= ${#positionals[@]})); then
            ((rest)) || return
            n=$((${#positionals[@]} - 1))
          fi
          @FUNCTION@_reply ${positionals[n]}
        }

        complete -F @FUNCTION@ @PROGRAM@
        """.replace("@CASES@", cases).replace("@COMMANDS@", String.join(" ", commands.keySet()))
        .replace("@FUNCTION@", function).replace("@PROGRAM@", program);
  }

  /** One branch of the bash function's {@code case "$cmd"}: the command's options, and its values' completions. */
  private static void bashCase(StringBuilder text, String pattern, CommandSyntax syntax, List<String> positionals,
      boolean rest) {
    List<Option> shown = shown(syntax);
    String options = shown.stream().flatMap(o -> o.names().stream()).collect(Collectors.joining(" "));
    String valued = shown.stream().filter(o -> o.arity() == Option.Arity.ONE).flatMap(o -> o.names().stream())
        .collect(Collectors.joining(" "));
    text.append("    ").append(pattern).append(")\n")
        .append("      options=\"").append(options).append("\" valued=\" ").append(valued).append(" \"")
        .append(" positionals=(").append(String.join(" ", positionals)).append(") rest=").append(rest ? 1 : 0)
        .append('\n');
    List<String> values = new ArrayList<>();
    for (Option option : shown) {
      if (option.isFlag()) {
        continue;
      }
      String reply = bashKind(ValueKind.of(option.label()), option.label());
      // a value that may be left out is the option's only when it follows an '='
      String when = option.arity() == Option.Arity.OPTIONAL ? "((equals)) && " : "";
      values.add("        " + String.join("|", option.names()) + ") " + when + "{ @FUNCTION@_reply " + reply + "; return; } ;;");
    }
    if (!values.isEmpty()) {
      text.append("      case \"$prev\" in\n");
      values.forEach(line -> text.append(line).append('\n'));
      text.append("      esac\n");
    }
    text.append("      ;;\n");
  }

  /** The arguments of the script's reply function for a value of this kind, separated by spaces. */
  private static String bashKind(ValueKind kind, String label) {
    return switch (kind) {
      case CHOICE -> "words " + String.join(" ", ValueKind.choices(label));
      case FILE -> "file";
      case DIRECTORY -> "dir";
      case COMMAND -> "commands";
      case ANY -> "none";
    };
  }

  /**
   * The zsh script: a {@code #compdef} function built on {@code _arguments}, which also works
   * sourced once {@code compinit} has run.
   */
  public static String zsh(String program, CommandSyntax root, Map<String, CommandSyntax> commands) {
    String function = "_" + program.replaceAll("[^A-Za-z0-9_]", "_");
    String names = String.join(" ", commands.keySet());
    StringBuilder described = new StringBuilder();
    commands.forEach((name, syntax) -> described.append("    ")
        .append(quoted(name + ":" + syntax.description().replace(":", "\\:"))).append('\n'));
    StringBuilder cases = new StringBuilder();
    commands.forEach((name, syntax) -> {
      List<String> specs = zshSpecs(syntax, names);
      cases.append("        ").append(name).append(")\n          _arguments -s \\\n");
      specs.forEach(spec -> cases.append("            ").append(spec).append(" \\\n"));
      cases.setLength(cases.length() - 3);
      cases.append("\n          ;;\n");
    });
    List<String> rootSpecs = new ArrayList<>(zshSpecs(root, names));
    rootSpecs.add(quoted("1: :->command"));
    rootSpecs.add(quoted("*:: :->args"));
    return """
        #compdef @PROGRAM@
        # zsh completion for @PROGRAM@, written by '@PROGRAM@ completion zsh' from its own command tables.
        # Load it with: source <(@PROGRAM@ completion zsh)   (after compinit)
        @FUNCTION@() {
          local curcontext="$curcontext" state line
          local -a commands
          commands=(
        @DESCRIBED@  )
          _arguments -C \\
            @ROOT@ && return
          case $state in
            command)
              _describe -t commands '@PROGRAM@ command' commands
              ;;
            args)
              curcontext="${curcontext%:*:*}:@PROGRAM@-$words[1]:"
              case $words[1] in
        @CASES@      esac
              ;;
          esac
        }

        if [[ $funcstack[1] == @FUNCTION@ ]]; then
          @FUNCTION@ "$@"
        else
          compdef @FUNCTION@ @PROGRAM@
        fi
        """.replace("@ROOT@", String.join(" \\\n    ", rootSpecs)).replace("@DESCRIBED@", described)
        .replace("@CASES@", cases).replace("@FUNCTION@", function).replace("@PROGRAM@", program);
  }

  /** The {@code _arguments} specs of a command's options and parameters. */
  private static List<String> zshSpecs(CommandSyntax syntax, String commandNames) {
    List<String> specs = new ArrayList<>();
    for (Option option : shown(syntax)) {
      String description = "[" + escaped(option.description()) + "]";
      String action = zshAction(ValueKind.of(option.label()), option.label(), commandNames);
      String label = option.isFlag() ? "" : escaped(option.label());
      for (String name : option.names()) {
        String spec = switch (option.arity()) {
          case NONE -> name + description;
          case ONE -> name + (name.startsWith("--") ? "=" : "+") + description + ":" + label + ":" + action;
          case OPTIONAL -> name + "=-" + description + "::" + label + ":" + action;
        };
        specs.add(quoted((option.isRepeatable() ? "*" : "") + spec));
      }
    }
    for (Parameter parameter : syntax.parameters()) {
      String action = zshAction(ValueKind.of(parameter.label()), parameter.label(), commandNames);
      String label = escaped(parameter.label());
      specs.add(quoted(switch (parameter.count()) {
        case ONE -> ":" + label + ":" + action;
        case OPTIONAL -> "::" + label + ":" + action;
        case REST -> "*:" + label + ":" + action;
      }));
    }
    return specs;
  }

  /** The action of an {@code _arguments} spec: what completes a value of this kind. */
  private static String zshAction(ValueKind kind, String label, String commandNames) {
    return switch (kind) {
      case CHOICE -> "(" + String.join(" ", ValueKind.choices(label)) + ")";
      case FILE -> "_files";
      case DIRECTORY -> "_files -/";
      case COMMAND -> "(" + commandNames + ")";
      case ANY -> " "; // a message and nothing to complete
    };
  }

  private static List<Option> shown(CommandSyntax syntax) {
    return syntax.options().stream().filter(o -> !o.isHidden()).toList();
  }

  private static <T> T last(List<T> list) {
    return list.get(list.size() - 1);
  }

  /** {@code text} safe inside an {@code _arguments} description or message: no bracket or colon ends it. */
  private static String escaped(String text) {
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]").replace(":", "\\:");
  }

  /** {@code text} as one single-quoted shell word. */
  private static String quoted(String text) {
    return "'" + text.replace("'", "'\\''") + "'";
  }
}

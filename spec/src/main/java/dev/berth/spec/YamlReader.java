package dev.berth.spec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.berth.core.units.ByteSize;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.math.BigDecimal;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads YAML into {@link YamlNode}s, turning every way a file can be unusable into a
 * {@link SpecException}: missing, unreadable, not UTF-8, bad syntax (with line and column), keys
 * written twice, aliases, several documents.
 */
final class YamlReader {

  /** The largest spec or config file Berth reads, in bytes. */
  static final int MAX_BYTES = 16 << 20;

  /**
   * The longest line Berth reads, in characters: the YAML scanner's time grows with the square of a
   * token's length, and a comment or plain scalar can make one line a single token.
   */
  static final int MAX_LINE = 1 << 20;

  private static final YAMLFactory FACTORY = YAMLFactory.builder().loaderOptions(loaderOptions())
      .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL) // as new YAMLFactory() does: 'key:' alone is null
      .build();

  private final YAMLParser parser;
  private final Field root;

  private YamlReader(YAMLParser parser, Field root) {
    this.parser = parser;
    this.root = root;
  }

  /**
   * Reads a whole file.
   *
   * @return the document, or empty when the file holds no value (nothing, or only comments)
   */
  static Optional<YamlNode> readFile(Path file) throws SpecException {
    Field root = Field.root(file.toString());
    if (Files.isDirectory(file)) {
      throw root.problem("is a directory, not a YAML file");
    }
    if (Files.exists(file) && !Files.isRegularFile(file)) {
      throw root.problem("is not a regular file (a device, a pipe or a socket); name a YAML file");
    }
    String text;
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readNBytes(MAX_BYTES + 1);
      if (bytes.length > MAX_BYTES) {
        throw root.problem("is larger than " + ByteSize.format(MAX_BYTES) + ", the most Berth reads;"
            + " a spec names its tasks with a matrix instead of listing each one");
      }
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (NoSuchFileException e) {
      throw root.problem("file not found");
    } catch (AccessDeniedException e) {
      throw root.problem("cannot be read: permission denied");
    } catch (CharacterCodingException e) {
      throw root.problem("cannot be read: it is not UTF-8 text");
    } catch (IOException e) {
      throw root.problem("cannot be read: " + e.getClass().getSimpleName() + " " + e.getMessage());
    }
    java.util.OptionalInt line = longLine(text);
    if (line.isPresent()) {
      throw new Field(root.file(), "line " + line.getAsInt()).problem("is longer than " + MAX_LINE
          + " characters, the most Berth reads in one line; break it up (a generated spec: write it with"
          + " line breaks, e.g. json.dumps(spec, indent=1))");
    }
    return readText(text, root);
  }

  private static java.util.OptionalInt longLine(String text) {
    int line = 1;
    int start = 0;
    for (int i = 0; i <= text.length(); i++) {
      if (i == text.length() || text.charAt(i) == '\n') {
        if (i - start > MAX_LINE) {
          return java.util.OptionalInt.of(line);
        }
        line++;
        start = i + 1;
      }
    }
    return java.util.OptionalInt.empty();
  }

  private static LoaderOptions loaderOptions() {
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit(MAX_BYTES); // the file limit above is the one users meet, with its own message
    return options;
  }

  /**
   * Reads YAML text; problems are reported against {@code root}.
   *
   * @return the document, or empty when the text holds no value
   */
  static Optional<YamlNode> readText(String text, Field root) throws SpecException {
    try (YAMLParser parser = FACTORY.createParser(text)) {
      return new YamlReader(parser, root).document();
    } catch (JsonProcessingException e) {
      throw syntaxError(e, root);
    } catch (IOException e) {
      throw root.problem("cannot be read: " + e.getMessage());
    }
  }

  private Optional<YamlNode> document() throws IOException, SpecException {
    JsonToken first = parser.nextToken();
    if (first == null) {
      return Optional.empty();
    }
    YamlNode value = value(first, root);
    if (parser.nextToken() != null) {
      throw new Field(root.file(), lineOfToken())
          .problem("a second YAML document (after '---') starts here; the file must hold exactly one");
    }
    if (value instanceof YamlNode.Scalar s && s.isNull()) {
      return Optional.empty();
    }
    return Optional.of(value);
  }

  private YamlNode value(JsonToken token, Field field) throws IOException, SpecException {
    if (parser.isCurrentAlias()) {
      throw field.problem("uses the YAML alias '*" + parser.getText()
          + "'; aliases are not supported, write the value out");
    }
    switch (token) {
      case START_OBJECT:
        return mapping(field);
      case START_ARRAY:
        return sequence(field);
      case VALUE_STRING:
        return new YamlNode.Scalar(YamlNode.Kind.STRING, parser.getText(), null);
      case VALUE_NUMBER_INT:
        return new YamlNode.Scalar(YamlNode.Kind.INTEGER, parser.getText(), number());
      case VALUE_NUMBER_FLOAT:
        return new YamlNode.Scalar(YamlNode.Kind.DECIMAL, parser.getText(), number());
      case VALUE_TRUE:
      case VALUE_FALSE:
        return new YamlNode.Scalar(YamlNode.Kind.BOOLEAN, parser.getText(), null);
      case VALUE_NULL:
        return new YamlNode.Scalar(YamlNode.Kind.NULL, "", null);
      default:
        throw field.problem("holds a kind of YAML value Berth does not read (" + token + ")");
    }
  }

  private YamlNode mapping(Field field) throws IOException, SpecException {
    Map<String, YamlNode> entries = new LinkedHashMap<>();
    Map<String, Integer> lines = new HashMap<>();
    for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
      String key = parser.currentName();
      int line = parser.currentTokenLocation().getLineNr();
      Field child = field.key(key);
      YamlNode value = value(parser.nextToken(), child);
      Integer earlier = lines.putIfAbsent(key, line);
      if (earlier != null) {
        throw child.problem("is set twice (lines " + earlier + " and " + line + "); keep one");
      }
      entries.put(key, value);
    }
    return new YamlNode.Mapping(Collections.unmodifiableMap(entries));
  }

  private YamlNode sequence(Field field) throws IOException, SpecException {
    List<YamlNode> items = new ArrayList<>();
    for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
      items.add(value(t, field.index(items.size())));
    }
    return new YamlNode.Sequence(List.copyOf(items));
  }

  private BigDecimal number() {
    try {
      return parser.getDecimalValue();
    } catch (IOException | NumberFormatException e) {
      // .inf and .nan: YAML numbers without a finite value; callers treat them as not a number.
      return null;
    }
  }

  private String lineOfToken() {
    return "line " + parser.currentTokenLocation().getLineNr();
  }

  private static SpecException syntaxError(JsonProcessingException e, Field root) {
    if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
      String where = "line " + (marked.getProblemMark().getLine() + 1)
          + ", column " + (marked.getProblemMark().getColumn() + 1);
      String problem = oneLine(marked.getProblem());
      // snakeyaml's "<block end>" jargon nearly always means a line is indented wrongly.
      String hint = problem.contains("<block") ? "; check the indentation of this line and the one above" : "";
      return new Field(root.file(), where).problem("not valid YAML: " + problem + hint);
    }
    String where = e.getLocation() == null ? ""
        : "line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    return new Field(root.file(), where).problem("not valid YAML: " + oneLine(e.getOriginalMessage()));
  }

  private static String oneLine(String message) {
    if (message == null || message.isBlank()) {
      return "syntax error";
    }
    return message.strip().lines().findFirst().orElse("syntax error");
  }
}

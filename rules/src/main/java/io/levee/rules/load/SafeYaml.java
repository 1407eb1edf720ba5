package io.levee.rules.load;

import java.io.StringReader;
import java.util.IdentityHashMap;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.inspector.TagInspector;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Turns YAML text into a node tree and nothing more: no constructor ever runs, so no tag can create
 * an object. Aliases, nesting and size are bounded; every failure becomes a located error.
 *
 * <p>The resolver knows no implicit types, so every plain scalar is a string that the schema parses
 * itself ({@code 2001-12-14} is not a date, {@code 0x10} not a number), and any tag other than the
 * core str/int/float/bool/null/map/seq ones must have been written explicitly: it is rejected.
 */
final class SafeYaml {
  static final int MAX_ALIASES = 50;
  static final int MAX_DEPTH = 50;
  static final int MAX_CHARS = 1024 * 1024;

  private static final String TAG_PREFIX = "tag:yaml.org,2002:";

  private SafeYaml() {}

  /**
   * The root node; null when the document is empty or could not be read (then an error is added).
   */
  static Node compose(String text, Problems problems) {
    LoaderOptions options = new LoaderOptions();
    options.setMaxAliasesForCollections(MAX_ALIASES);
    options.setNestingDepthLimit(MAX_DEPTH);
    options.setCodePointLimit(MAX_CHARS);
    options.setAllowRecursiveKeys(false);
    options.setAllowDuplicateKeys(false);
    options.setTagInspector(
        new TagInspector() {
          @Override
          public boolean isGlobalTagAllowed(Tag tag) {
            return false;
          }
        });
    Tracking parser =
        new Tracking(new ParserImpl(new StreamReader(new StringReader(text)), options));
    Node root;
    try {
      root = new Composer(parser, new NoImplicitTypes(), options).getSingleNode();
    } catch (MarkedYAMLException e) {
      Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      problems.at(mark != null ? mark : parser.last, "", describe(e));
      return null;
    } catch (ReaderException e) {
      int[] lineColumn = lineColumn(text, e.getPosition());
      problems.at(
          lineColumn[0],
          lineColumn[1],
          "",
          String.format(
              "the file contains the character U+%04X, which YAML does not allow",
              e.getCodePoint()));
      return null;
    } catch (YAMLException e) {
      problems.at(parser.last, "", describe(e));
      return null;
    }
    if (root != null
        && !tagsAreStandard(root, "", problems, new IdentityHashMap<Node, Boolean>())) {
      return null;
    }
    return root;
  }

  private static String describe(YAMLException e) {
    String message = String.valueOf(e.getMessage());
    if (message.startsWith("Number of aliases")) {
      return "more than "
          + MAX_ALIASES
          + " aliases to lists or mappings; the limit guards against"
          + " alias bombs";
    }
    if (message.startsWith("Nesting Depth exceeded")) {
      return "nested more than "
          + MAX_DEPTH
          + " levels deep; the limit guards against hostile input";
    }
    if (message.startsWith("The incoming YAML document exceeds the limit")) {
      return "rules text is longer than 1 MiB, the limit";
    }
    if (!(e instanceof MarkedYAMLException)) {
      return "invalid YAML: " + message;
    }
    MarkedYAMLException marked = (MarkedYAMLException) e;
    String problem = String.valueOf(marked.getProblem());
    if (problem.startsWith("Global tag is not allowed: ")) {
      return tagMessage(problem.substring("Global tag is not allowed: ".length()));
    }
    if (problem.equals("but found another document")) {
      return "a rules file is one YAML document, but a second one starts here";
    }
    Mark context = marked.getContextMark();
    if (problem.startsWith("expected <block end>") && context != null) {
      return "invalid YAML: this line does not line up with the block that starts at "
          + (context.getLine() + 1)
          + ":"
          + (context.getColumn() + 1)
          + "; check its indentation";
    }
    if (problem.contains("\\t(TAB)")) {
      return "invalid YAML: a tab character; YAML indents with spaces only";
    }
    StringBuilder text = new StringBuilder("invalid YAML: ").append(problem);
    if (marked.getContext() != null) {
      text.append(" (").append(marked.getContext());
      if (context != null) {
        text.append(" at ")
            .append(context.getLine() + 1)
            .append(':')
            .append(context.getColumn() + 1);
      }
      text.append(')');
    }
    return text.toString();
  }

  private static String tagMessage(String tag) {
    String shown = tag.startsWith(TAG_PREFIX) ? "!!" + tag.substring(TAG_PREFIX.length()) : tag;
    return "YAML tags are not allowed, found `" + shown + "`";
  }

  /** Reports every node whose tag was written explicitly and is not a core one. */
  private static boolean tagsAreStandard(
      Node node, String path, Problems problems, Map<Node, Boolean> seen) {
    if (seen.put(node, Boolean.TRUE) != null) {
      return true;
    }
    boolean ok = true;
    Tag tag = node.getTag();
    if (!(tag.equals(Tag.STR)
        || tag.equals(Tag.MAP)
        || tag.equals(Tag.SEQ)
        || tag.equals(Tag.INT)
        || tag.equals(Tag.FLOAT)
        || tag.equals(Tag.BOOL)
        || tag.equals(Tag.NULL))) {
      problems.at(node, path, tagMessage(tag.getValue()));
      ok = false;
    }
    if (node instanceof SequenceNode) {
      int i = 0;
      for (Node item : ((SequenceNode) node).getValue()) {
        ok &= tagsAreStandard(item, path + "[" + i++ + "]", problems, seen);
      }
    } else if (node instanceof MappingNode) {
      for (NodeTuple t : ((MappingNode) node).getValue()) {
        Node key = t.getKeyNode();
        String child =
            key instanceof ScalarNode ? Section.join(path, ((ScalarNode) key).getValue()) : path;
        ok &= tagsAreStandard(key, child, problems, seen);
        ok &= tagsAreStandard(t.getValueNode(), child, problems, seen);
      }
    }
    return ok;
  }

  private static int[] lineColumn(String text, int position) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < Math.min(position, text.length()); i++) {
      if (text.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return new int[] {line, column};
  }

  /** Every plain scalar resolves to a string; the schema parses values itself. */
  private static final class NoImplicitTypes extends Resolver {
    @Override
    protected void addImplicitResolvers() {}
  }

  /**
   * Remembers where the last event began, to locate errors that SnakeYAML raises without a mark.
   */
  private static final class Tracking implements Parser {
    private final Parser parser;
    Mark last;

    Tracking(Parser parser) {
      this.parser = parser;
    }

    @Override
    public boolean checkEvent(Event.ID id) {
      return parser.checkEvent(id);
    }

    @Override
    public Event peekEvent() {
      return remember(parser.peekEvent());
    }

    @Override
    public Event getEvent() {
      return remember(parser.getEvent());
    }

    private Event remember(Event event) {
      if (event != null) {
        last = event.getStartMark();
      }
      return event;
    }
  }
}

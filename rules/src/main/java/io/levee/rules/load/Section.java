package io.levee.rules.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * One mapping of the schema, such as {@code rate-limit:}. Reading it reports, up front, every key
 * that is duplicated, not a plain name, or not one of the keys allowed there. Then each value is
 * read with its {@link ValueType}; a bad value is reported at the value and the default is used, so
 * reading goes on and every error of the file is found in one pass.
 */
final class Section {
  final String path;

  /** Where to point when something is missing: the section's key, or the mapping itself. */
  final Mark mark;

  private final Problems problems;
  private final Map<String, NodeTuple> entries = new LinkedHashMap<String, NodeTuple>();
  private boolean readable = true;

  private Section(String path, Mark mark, Problems problems) {
    this.path = path;
    this.mark = mark;
    this.problems = problems;
  }

  /**
   * Reads {@code node} as a mapping with the given keys. An empty value reads as an empty mapping;
   * anything else that is not a mapping is an error, and an empty section is returned.
   */
  static Section read(
      Node node, Mark mark, String path, Problems problems, String what, String... keys) {
    Section section = new Section(path, mark, problems);
    if (isNull(node)) {
      return section;
    }
    if (!(node instanceof MappingNode)) {
      problems.at(node, path, "expected " + what + ", got " + describe(node));
      section.readable = false;
      return section;
    }
    List<String> valid = Arrays.asList(keys);
    for (NodeTuple tuple : ((MappingNode) node).getValue()) {
      Node keyNode = tuple.getKeyNode();
      if (!(keyNode instanceof ScalarNode) || isNull(keyNode)) {
        problems.at(keyNode, path, "expected a key name here, got " + describe(keyNode));
        continue;
      }
      String key = ((ScalarNode) keyNode).getValue();
      NodeTuple first = section.entries.get(key);
      if (first != null) {
        problems.at(keyNode, join(path, key), duplicate(key, first.getKeyNode()));
      } else if (!valid.contains(key)) {
        problems.at(keyNode, join(path, key), Suggestions.unknownKey(key, valid));
      } else {
        section.entries.put(key, tuple);
      }
    }
    return section;
  }

  static String duplicate(String key, Node first) {
    return "duplicate key `"
        + key
        + "`; it is already set on line "
        + (first.getStartMark().getLine() + 1);
  }

  static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** False when the value was not a mapping (already reported): say nothing more about it. */
  boolean readable() {
    return readable;
  }

  boolean has(String key) {
    return entries.containsKey(key);
  }

  boolean isEmpty() {
    return entries.isEmpty();
  }

  String path(String key) {
    return join(path, key);
  }

  Node keyNode(String key) {
    return entries.get(key).getKeyNode();
  }

  Node value(String key) {
    NodeTuple t = entries.get(key);
    return t == null ? null : t.getValueNode();
  }

  /** The keys present, in file order. */
  List<String> keys() {
    return new ArrayList<String>(entries.keySet());
  }

  /** Reports a contradiction at {@code key}. */
  void reject(String key, String message) {
    problems.at(keyNode(key), path(key), message);
  }

  /** Reports {@code message} about the section as a whole. */
  void error(String message) {
    problems.at(mark, path, message);
  }

  /** Reports {@code message} about {@code key} that is missing from this section. */
  void missing(String key, String message) {
    problems.at(mark, path(key), message);
  }

  /** A nested section, or null when the key is absent. */
  Section section(String key, String what, String... keys) {
    NodeTuple t = entries.get(key);
    if (t == null) {
      return null;
    }
    return read(t.getValueNode(), t.getKeyNode().getStartMark(), path(key), problems, what, keys);
  }

  /**
   * The mappings of the list under {@code key}, each read with {@code keys}; empty when the key is
   * absent, and with an error when it is not a non-empty list of mappings. {@code example} shows
   * one entry.
   */
  List<Section> sections(String key, String example, String... keys) {
    List<Section> sections = new ArrayList<Section>();
    if (!has(key)) {
      return sections;
    }
    Node node = value(key);
    if (!(node instanceof SequenceNode)) {
      problems.at(node, path(key), "expected a list like [" + example + "], got " + describe(node));
      return sections;
    }
    List<Node> items = ((SequenceNode) node).getValue();
    if (items.isEmpty()) {
      problems.at(
          node,
          path(key),
          "the list is empty; give it entries like " + example + ", or leave `" + key + "` out");
      return sections;
    }
    for (int i = 0; i < items.size(); i++) {
      Node item = items.get(i);
      String path = path(key) + "[" + i + "]";
      if (isNull(item)) {
        // an entry left empty ("-" alone) is a slip, not a request for nothing
        problems.at(item, path, "expected a mapping like " + example + ", got nothing");
        continue;
      }
      Section section =
          read(item, item.getStartMark(), path, problems, "a mapping like " + example, keys);
      if (section.readable()) {
        sections.add(section);
      }
    }
    return sections;
  }

  /** The value of {@code key}, or {@code fallback} when it is absent or not valid. */
  <T> T get(String key, ValueType<T> type, T fallback) {
    T value = has(key) ? scalar(value(key), path(key), type) : null;
    return value == null ? fallback : value;
  }

  /**
   * The value of a key that must be present; null (with an error) when it is missing or invalid.
   */
  <T> T require(String key, ValueType<T> type, String what) {
    if (!has(key)) {
      if (readable) {
        missing(key, "`" + key + "` is required: " + what);
      }
      return null;
    }
    return scalar(value(key), path(key), type);
  }

  /** A non-empty list of values, or null when the key is absent or the list not valid. */
  <T> List<T> list(String key, ValueType<T> type, String example) {
    return list(key, type, example, "leave `" + key + "` out to match everything");
  }

  /** As {@link #list(String, ValueType, String)}, saying {@code ifEmpty} of an empty list. */
  <T> List<T> list(String key, ValueType<T> type, String example, String ifEmpty) {
    if (!has(key)) {
      return null;
    }
    Node node = value(key);
    if (!(node instanceof SequenceNode)) {
      problems.at(node, path(key), "expected a list like " + example + ", got " + describe(node));
      return null;
    }
    return items((SequenceNode) node, key, type, "the list is empty; " + ifEmpty);
  }

  /**
   * The value of a key that must be present and is one value or a non-empty list of them; null
   * (with an error) when it is missing or invalid.
   */
  <T> List<T> oneOrList(String key, ValueType<T> type, String what) {
    if (!has(key)) {
      if (readable) {
        missing(key, "`" + key + "` is required: " + what);
      }
      return null;
    }
    Node node = value(key);
    if (node instanceof SequenceNode) {
      return items(
          (SequenceNode) node,
          key,
          type,
          "the list is empty; `" + key + "` needs " + type.expected);
    }
    if (node instanceof MappingNode) {
      problems.at(
          node,
          path(key),
          "expected " + type.expected + ", or a list of them, got " + describe(node));
      return null;
    }
    T value = scalar(node, path(key), type);
    return value == null ? null : new ArrayList<T>(Collections.singletonList(value));
  }

  private <T> List<T> items(SequenceNode node, String key, ValueType<T> type, String ifEmpty) {
    List<Node> items = node.getValue();
    if (items.isEmpty()) {
      problems.at(node, path(key), ifEmpty);
      return null;
    }
    int before = problems.count();
    List<T> values = new ArrayList<T>();
    for (int i = 0; i < items.size(); i++) {
      values.add(scalar(items.get(i), path(key) + "[" + i + "]", type));
    }
    return problems.count() == before ? values : null;
  }

  /** A mapping of HTTP header names to values, in file order; empty when absent or invalid. */
  Map<String, String> headers(String key) {
    Map<String, String> headers = new LinkedHashMap<String, String>();
    if (!has(key)) {
      return headers;
    }
    Node node = value(key);
    if (!(node instanceof MappingNode)) {
      problems.at(
          node,
          path(key),
          "expected a mapping of header names to values, like"
              + " { X-Reason: overload }, got "
              + describe(node));
      return headers;
    }
    Map<String, Node> seen = new LinkedHashMap<String, Node>();
    for (NodeTuple t : ((MappingNode) node).getValue()) {
      String name = scalar(t.getKeyNode(), path(key), Patterns.HEADER_NAME);
      if (name == null) {
        continue;
      }
      String lower = name.toLowerCase(Locale.ROOT);
      String at = path(key) + "." + name;
      if (seen.containsKey(lower)) {
        problems.at(t.getKeyNode(), at, duplicate(name, seen.get(lower)));
        continue;
      }
      seen.put(lower, t.getKeyNode());
      String value = scalar(t.getValueNode(), at, Patterns.HEADER_VALUE);
      if (value != null) {
        headers.put(name, value);
      }
    }
    return headers;
  }

  /** Reads one scalar; null (with an error) when it is not one or does not parse. */
  <T> T scalar(Node node, String at, ValueType<T> type) {
    if (!(node instanceof ScalarNode) || isNull(node)) {
      problems.at(node, at, "expected " + type.expected + ", got " + describe(node));
      return null;
    }
    String text = ((ScalarNode) node).getValue();
    try {
      return type.parse(text);
    } catch (ValueType.Bad bad) {
      String message = bad.getMessage();
      problems.at(
          node.getStartMark().getLine() + 1,
          column((ScalarNode) node, bad.offset),
          at,
          message != null ? message : "expected " + type.expected + ", got " + quote(text));
      return null;
    }
  }

  /**
   * The 1-based column of character {@code offset} of a scalar's value: exact when the scalar is
   * plain or quoted on one line without escapes (its width in the file is then its length, plus the
   * quotes), else, as for an offset of -1, the column where the scalar starts.
   */
  static int column(ScalarNode node, int offset) {
    Mark start = node.getStartMark();
    Mark end = node.getEndMark();
    int column = start.getColumn() + 1;
    DumperOptions.ScalarStyle style = node.getScalarStyle();
    int quotes =
        style == DumperOptions.ScalarStyle.PLAIN
            ? 0
            : style == DumperOptions.ScalarStyle.SINGLE_QUOTED
                    || style == DumperOptions.ScalarStyle.DOUBLE_QUOTED
                ? 1
                : -1;
    if (offset < 0 || quotes < 0 || end == null || end.getLine() != start.getLine()) {
      return column;
    }
    // marks count code points, and an escape is always wider in the file than in the value
    String text = node.getValue();
    int points = text.codePointCount(0, text.length());
    if (end.getColumn() - start.getColumn() != points + 2 * quotes) {
      return column;
    }
    return column + quotes + text.codePointCount(0, Math.min(offset, text.length()));
  }

  static boolean isNull(Node node) {
    if (node == null || node.getTag().equals(Tag.NULL)) {
      return true;
    }
    if (!(node instanceof ScalarNode)) {
      return false;
    }
    ScalarNode s = (ScalarNode) node;
    if (s.getScalarStyle() != DumperOptions.ScalarStyle.PLAIN) {
      return false;
    }
    String v = s.getValue();
    return v.isEmpty() || v.equals("~") || v.equals("null") || v.equals("Null") || v.equals("NULL");
  }

  static String describe(Node node) {
    if (isNull(node)) {
      return "nothing";
    }
    if (node instanceof SequenceNode) {
      return "a list";
    }
    if (node instanceof MappingNode) {
      return "a mapping";
    }
    return quote(((ScalarNode) node).getValue());
  }

  static String quote(String text) {
    String shown = text.length() > 60 ? text.substring(0, 57) + "..." : text;
    return "'" + shown + "'";
  }
}

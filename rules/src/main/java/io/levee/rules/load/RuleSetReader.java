package io.levee.rules.load;

import io.levee.rules.model.AdaptiveSpec;
import io.levee.rules.model.CallKind;
import io.levee.rules.model.Defaults;
import io.levee.rules.model.Mode;
import io.levee.rules.model.OnBlock;
import io.levee.rules.model.ResourceRule;
import io.levee.rules.model.RuleSet;
import io.levee.rules.model.Settings;
import io.levee.rules.model.SystemRule;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** Reads the top of the rules file: version, settings, system and the list of resources. */
final class RuleSetReader {
  static final String[] KEYS = {"version", "settings", "system", "resources"};
  static final String[] SETTINGS = {"mode", "reload", "max-keys", "cluster"};
  static final String[] SYSTEM = {"exclude", "adaptive", "on-block", "mode", "backpressure"};

  /**
   * The most method resources one file may hold: the weaver checks every class it loads or
   * retransforms against each of them.
   */
  static final int MAX_METHODS = 64;

  private static final long MIN_RELOAD_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private static final ValueType<String> VERSION =
      ValueType.of(
          "1",
          new ValueType.Parse<String>() {
            @Override
            public String parse(String text) throws ValueType.Bad {
              if (!text.equals("1")) {
                throw new ValueType.Bad(
                    "unsupported version "
                        + Section.quote(text)
                        + "; this version of Levee reads version 1");
              }
              return text;
            }
          });

  private static final ValueType<Long> RELOAD =
      ValueType.of(
          "a duration like 2s, or 0 to turn reloading off",
          new ValueType.Parse<Long>() {
            @Override
            public Long parse(String text) throws ValueType.Bad {
              long nanos = Types.nanos(text);
              if (nanos > 0 && nanos < MIN_RELOAD_NANOS) {
                throw new ValueType.Bad("must be 0 (off) or at least 100ms, got " + text);
              }
              return nanos;
            }
          });

  private RuleSetReader() {}

  /** The rule set, or null when the file has any error (all of them reported). */
  static RuleSet read(Node root, String source, Problems problems) {
    if (root == null) {
      problems.at(1, 1, "", "the rules file is empty; it needs at least `version: 1`");
      return null;
    }
    int before = problems.count();
    Section top =
        Section.read(
            root,
            root.getStartMark(),
            "",
            problems,
            "a mapping with version, settings, system and resources",
            KEYS);
    if (!top.readable()) {
      return null;
    }
    top.require("version", VERSION, "start the file with `version: 1`");
    Section settingsSection =
        top.section("settings", "a mapping with mode, reload, max-keys and cluster", SETTINGS);
    Settings settings = settings(settingsSection, source);
    // A cluster section with an error of its own is reported there, not again at each scope.
    boolean clustered = settingsSection != null && settingsSection.has("cluster");
    Section s =
        top.section(
            "system", "a mapping with exclude, adaptive, on-block, mode and backpressure", SYSTEM);
    SystemRule system = s != null ? system(s, settings.mode) : null;
    List<ResourceRule> resources = resources(top, settings.mode, clustered, s != null, problems);
    if (problems.count() > before) {
      return null;
    }
    return new RuleSet(source, settings, system, resources);
  }

  private static Settings settings(Section s, String source) {
    if (s == null) {
      return Settings.DEFAULT;
    }
    Section c =
        s.section(
            "cluster", "a mapping with redis, name, sync and on-failure", ClusterReader.CLUSTER);
    return new Settings(
        s.get("mode", Types.MODE, Defaults.MODE),
        s.get("reload", RELOAD, Defaults.RELOAD_NANOS),
        s.get("max-keys", Types.whole(1, 10_000_000), Defaults.MAX_KEYS),
        c == null ? null : ClusterReader.read(c, source));
  }

  private static SystemRule system(Section s, Mode defaultMode) {
    List<String> exclude = s.list("exclude", Patterns.PATH_PATTERN, "[\"/health\"]");
    Section a =
        s.section(
            "adaptive",
            "a mapping with min-limit, max-limit, initial-limit and" + " cpu-target",
            PolicyReader.ADAPTIVE);
    AdaptiveSpec adaptive = null;
    if (a == null) {
      if (s.readable()) {
        s.missing(
            "adaptive",
            "`adaptive` is required: the limit on all inbound requests, like"
                + " adaptive: { cpu-target: 80% }");
      }
    } else {
      adaptive = PolicyReader.adaptive(a);
    }
    Section b =
        s.section("on-block", "a mapping of what a shed request gets", OutcomeReader.ON_BLOCK);
    OnBlock onBlock = b != null ? OutcomeReader.systemOnBlock(b) : OnBlock.DEFAULT;
    Mode mode = s.get("mode", Types.MODE, defaultMode);
    boolean backpressure = s.get("backpressure", Types.BOOLEAN, Boolean.FALSE);
    return new SystemRule(
        exclude != null ? exclude : Collections.<String>emptyList(),
        adaptive,
        mode,
        onBlock,
        backpressure);
  }

  private static List<ResourceRule> resources(
      Section top, Mode mode, boolean clustered, boolean system, Problems problems) {
    List<ResourceRule> resources = new ArrayList<ResourceRule>();
    Node list = top.value("resources");
    if (list == null || Section.isNull(list)) {
      return resources;
    }
    if (!(list instanceof SequenceNode)) {
      problems.at(
          list,
          "resources",
          "expected a list of resources, each starting with `- name:`,"
              + " got "
              + Section.describe(list));
      return resources;
    }
    Map<String, Node> names = new HashMap<String, Node>();
    List<Node> items = ((SequenceNode) list).getValue();
    int methods = 0;
    for (int i = 0; i < items.size(); i++) {
      String path = "resources[" + i + "]";
      ResourceRule rule =
          ResourceReader.read(items.get(i), path, mode, clustered, system, problems);
      checkUnique(items.get(i), path, names, problems);
      if (rule != null) {
        resources.add(rule);
      }
      if (rule != null && rule.match.kind == CallKind.METHOD && ++methods == MAX_METHODS + 1) {
        problems.at(
            items.get(i),
            path,
            "a rules file may hold at most "
                + MAX_METHODS
                + " method resources, and this is the "
                + (MAX_METHODS + 1)
                + "th; protect several classes with one resource (`class` takes a list) where"
                + " they can share its policies");
      }
    }
    return resources;
  }

  private static final String RESERVED_NAME = "system";

  /** Reports a name given to an earlier resource, at the later one, and the reserved name. */
  private static void checkUnique(
      Node item, String path, Map<String, Node> names, Problems problems) {
    Node nameNode = nameNode(item);
    if (nameNode == null) {
      return;
    }
    String name = ((ScalarNode) nameNode).getValue();
    if (RESERVED_NAME.equals(name)) {
      // because metrics and the status table already name the system rule's row `system`.
      problems.at(
          nameNode,
          path + ".name",
          "the name `system` is reserved for the system rule; choose another name");
      return;
    }
    Node first = names.get(name);
    if (first == null) {
      names.put(name, nameNode);
      return;
    }
    problems.at(
        nameNode,
        path + ".name",
        "duplicate resource name `"
            + name
            + "`; line "
            + (first.getStartMark().getLine() + 1)
            + " already uses it, and names must be unique");
  }

  private static Node nameNode(Node item) {
    if (!(item instanceof MappingNode)) {
      return null;
    }
    for (NodeTuple t : ((MappingNode) item).getValue()) {
      if (t.getKeyNode() instanceof ScalarNode
          && ((ScalarNode) t.getKeyNode()).getValue().equals("name")
          && t.getValueNode() instanceof ScalarNode
          && !Section.isNull(t.getValueNode())) {
        return t.getValueNode();
      }
    }
    return null;
  }
}

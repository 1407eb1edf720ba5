import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The end of run-tests.sh: per module, the tests run, failed and skipped (from the Surefire and
 * Failsafe reports written by this run, newer than the marker file), then every skipped test with its
 * reason, the duration, and a closing line "N passed, N failed, N skipped". Run with the JDK's source launcher:
 * java scripts/TestSummary.java MARKER SECONDS
 */
public class TestSummary {
  public static void main(String[] args) throws Exception {
    Path marker = Paths.get(args[0]);
    long seconds = Long.parseLong(args[1]);
    long since = Files.getLastModifiedTime(marker).toMillis();
    Map<String, int[]> modules = new TreeMap<>();
    Map<String, List<String>> skippedByReason = new TreeMap<>();
    for (Path report : reports(Paths.get("."), since)) {
      String module = report.getParent().getParent().getParent().normalize().toString();
      module = module.isEmpty() || module.equals(".") ? "(root)" : module.replaceFirst("^\\./", "");
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile());
      NodeList cases = doc.getElementsByTagName("testcase");
      int[] counts = modules.computeIfAbsent(module, m -> new int[3]);
      for (int i = 0; i < cases.getLength(); i++) {
        Element c = (Element) cases.item(i);
        counts[0]++;
        if (c.getElementsByTagName("failure").getLength() + c.getElementsByTagName("error").getLength() > 0) {
          counts[1]++;
        }
        NodeList skipped = c.getElementsByTagName("skipped");
        if (skipped.getLength() > 0) {
          counts[2]++;
          String reason = ((Element) skipped.item(0)).getAttribute("message");
          skippedByReason
              .computeIfAbsent(reason.isEmpty() ? "(no reason given)" : reason, r -> new ArrayList<>())
              .add(c.getAttribute("classname").replaceFirst(".*\\.", "") + "." + c.getAttribute("name"));
        }
      }
    }
    int run = 0;
    int failed = 0;
    int skipped = 0;
    System.out.println();
    System.out.println("run-tests: tests per module (run / failed / skipped)");
    for (Map.Entry<String, int[]> e : modules.entrySet()) {
      int[] c = e.getValue();
      System.out.printf("  %-28s %5d / %d / %d%n", e.getKey(), c[0], c[1], c[2]);
      run += c[0];
      failed += c[1];
      skipped += c[2];
    }
    for (Map.Entry<String, List<String>> e : skippedByReason.entrySet()) {
      System.out.println("  skipped, " + e.getKey() + ": " + e.getValue().size() + " (" + first(e.getValue()) + ")");
    }
    System.out.printf("run-tests: %d tests in %d min %02d s%s%n",
        run, seconds / 60, seconds % 60,
        skipped == 0 ? "" : "; " + skipped + " SKIPPED TESTS DID NOT RUN, reasons above");
    // The closing line in the plain form CI reads: passed, failed, skipped.
    System.out.printf("run-tests: %d passed, %d failed, %d skipped%n", run - failed - skipped, failed, skipped);
  }

  private static String first(List<String> names) {
    List<String> shown = names.subList(0, Math.min(3, names.size()));
    return String.join(", ", shown) + (names.size() > shown.size() ? ", ..." : "");
  }

  private static List<Path> reports(Path root, long since) throws IOException {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> paths = Files.walk(root, 5)) {
      paths
          .filter(p -> p.getFileName().toString().startsWith("TEST-") && p.toString().endsWith(".xml"))
          .filter(p -> p.getParent().getFileName().toString().matches("(surefire|failsafe)-reports"))
          .filter(p -> p.toFile().lastModified() >= since)
          .sorted()
          .forEach(found::add);
    }
    return found;
  }
}

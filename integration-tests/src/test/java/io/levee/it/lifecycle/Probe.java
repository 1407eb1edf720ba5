package io.levee.it.lifecycle;

import com.sun.tools.attach.VirtualMachine;
import io.levee.it.support.TestPaths;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The test's side of {@link BytecodeProbe}: packs it into a jar and loads it into an application
 * through the JDK's attach API for each look.
 */
public final class Probe {
  private static Path jar;

  private Probe() {}

  /** What the application runs now: a digest per class, and its threads' names. */
  public record Look(Map<String, String> bytecode, List<String> threads) {}

  public static Look look(String pid, List<String> classes) throws Exception {
    Path out = Files.createTempFile(TestPaths.workDir(), "probe-", ".txt");
    VirtualMachine vm = VirtualMachine.attach(pid);
    try {
      vm.loadAgent(jar().toString(), out + ";" + String.join(",", classes));
    } finally {
      vm.detach();
    }
    Map<String, String> bytecode = new LinkedHashMap<>();
    List<String> threads = new ArrayList<>();
    for (String line : Files.readAllLines(out)) {
      String[] words = line.split(" ", 3);
      if (words[0].equals("class")) {
        if (!words[2].matches("[0-9a-f]{64}")) {
          throw new IllegalStateException(line);
        }
        bytecode.put(words[1], words[2]);
      } else {
        threads.add(line.substring("thread ".length()));
      }
    }
    Files.delete(out);
    return new Look(bytecode, threads);
  }

  private static synchronized Path jar() throws IOException {
    if (jar != null) {
      return jar;
    }
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().putValue("Agent-Class", BytecodeProbe.class.getName());
    manifest.getMainAttributes().putValue("Can-Retransform-Classes", "true");
    Path classes = Paths.get(System.getProperty("levee.test.classes", "target/test-classes"));
    Path part = TestPaths.workDir().resolve("bytecode-probe.jar.part");
    try (OutputStream file = Files.newOutputStream(part);
        JarOutputStream out = new JarOutputStream(file, manifest)) {
      for (String name :
          List.of(BytecodeProbe.class.getName(), BytecodeProbe.class.getName() + "$1")) {
        String entry = name.replace('.', '/') + ".class";
        out.putNextEntry(new JarEntry(entry));
        out.write(Files.readAllBytes(classes.resolve(entry)));
        out.closeEntry();
      }
    }
    jar =
        Files.move(
            part, part.resolveSibling("bytecode-probe.jar"), StandardCopyOption.REPLACE_EXISTING);
    return jar;
  }
}

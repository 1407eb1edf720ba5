package io.levee.it.lifecycle;

import java.io.IOException;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A test-only agent (no Levee code), loaded into a test application for one look at what Levee did
 * to it: a digest of the bytecode each named class runs now, and the names of the live threads,
 * written to the file named in the agent argument ({@code FILE;class,class}).
 *
 * <p>It is loaded afresh for every look, because the JVM runs the transformers of each agent in the
 * order the agents were loaded: only an agent loaded after Levee sees the bytes Levee made. The
 * bytes are captured during a retransformation, with a transformer added just for it, and digested
 * in their {@link CanonicalBytecode} form.
 */
public final class BytecodeProbe {
  private BytecodeProbe() {}

  public static void agentmain(String args, Instrumentation inst) throws IOException {
    String[] parts = args.split(";");
    List<String> lines = new ArrayList<>();
    for (String name : parts[1].split(",")) {
      lines.add("class " + name + " " + digest(inst, name));
    }
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      lines.add("thread " + t.getName());
    }
    Files.write(Paths.get(parts[0]), lines);
  }

  private static String digest(Instrumentation inst, String name) {
    for (Class<?> type : inst.getAllLoadedClasses()) {
      if (type.getName().equals(name)) {
        return capture(inst, type);
      }
    }
    return "not-loaded";
  }

  private static String capture(Instrumentation inst, Class<?> type) {
    AtomicReference<byte[]> seen = new AtomicReference<>();
    ClassFileTransformer capture =
        new ClassFileTransformer() {
          @Override
          public byte[] transform(
              ClassLoader loader,
              String className,
              Class<?> redefined,
              ProtectionDomain domain,
              byte[] bytes) {
            if (redefined == type) {
              seen.set(bytes.clone());
            }
            return null;
          }
        };
    inst.addTransformer(capture, true);
    try {
      inst.retransformClasses(type);
      return CanonicalBytecode.digest(seen.get());
    } catch (Exception e) {
      return "error:" + e;
    } finally {
      inst.removeTransformer(capture);
    }
  }
}

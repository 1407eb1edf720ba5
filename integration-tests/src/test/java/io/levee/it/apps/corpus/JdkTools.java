package io.levee.it.apps.corpus;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import net.bytebuddy.jar.asm.ClassReader;

/**
 * The JDK's own tools used in-process, as build tools, JSP compilers and class-path scanners use
 * them: a {@code jrt:} URL, ASM reading JDK classes by name (through the system class loader, hence
 * {@code jrt:}), a walk of the runtime image's file system, and {@code javax.tools} javac compiling
 * and the result run. Everything it prints is deterministic, so that three runs compare line by
 * line. The first thing it does opens a {@code jrt:} URL, while the jrt handler's classes are not
 * loaded yet.
 */
public final class JdkTools {
  private JdkTools() {}

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]);
    URL object = new URL("jrt:/java.base/java/lang/Object.class");
    System.out.println("jrt url " + digest(read(object.openConnection().getInputStream())));

    for (String name :
        List.of("java.lang.Object", "java.net.HttpURLConnection", "java.sql.Statement")) {
      ClassReader reader = new ClassReader(name);
      System.out.println(
          "asm "
              + name
              + " extends "
              + reader.getSuperName()
              + " "
              + List.of(reader.getInterfaces()));
    }

    FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
    try (Stream<Path> files = Files.walk(jrt.getPath("/modules/java.sql"))) {
      System.out.println(
          "jrt fs java.sql classes " + files.filter(p -> p.toString().endsWith(".class")).count());
    }

    Path sources = Files.createDirectories(work.resolve("src/corpus"));
    Path classes = Files.createDirectories(work.resolve("classes"));
    Files.writeString(
        sources.resolve("Greeting.java"),
        "package corpus;\n"
            + "public record Greeting(String who) implements java.util.function.Supplier<String> {\n"
            + "  public String get() { return \"hello, \" + who; }\n"
            + "}\n");
    Files.writeString(
        sources.resolve("Warned.java"),
        "package corpus;\n"
            + "public class Warned { @Deprecated public static int old() { return 1; }\n"
            + "  public static void main(String[] a) { System.out.println(new Greeting(a[0]).get()); } }\n");
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int status =
        javac.run(
            null,
            null,
            diagnostics,
            "-d",
            classes.toString(),
            "-Xlint:all",
            sources.resolve("Greeting.java").toString(),
            sources.resolve("Warned.java").toString());
    System.out.println(
        "javac status " + status + " diagnostics " + diagnostics.toString().lines().count());
    try (Stream<Path> out = Files.walk(classes)) {
      for (Path file : (Iterable<Path>) out.sorted()::iterator) {
        if (Files.isRegularFile(file)) {
          System.out.println(
              "class " + classes.relativize(file) + " " + digest(Files.readAllBytes(file)));
        }
      }
    }
    try (URLClassLoader compiled = new URLClassLoader(new URL[] {classes.toUri().toURL()})) {
      compiled
          .loadClass("corpus.Warned")
          .getMethod("main", String[].class)
          .invoke(null, (Object) new String[] {"corpus"});
    }
  }

  private static byte[] read(InputStream in) throws IOException {
    try (in) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  private static String digest(byte[] bytes) throws Exception {
    return HexFormat.of()
            .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes))
            .substring(0, 16)
        + " ("
        + bytes.length
        + " bytes)";
  }
}

package io.levee.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * What to start and how: the command line of an application JVM ({@link JvmProcess#java}, {@link
 * JvmProcess#command}), where its output goes and what says it is ready; {@link #start} starts it.
 */
public final class JvmCommand {
  private final String java;
  private final List<String> verbatim;
  private String cpus;
  private final List<String> options = new ArrayList<>();
  private final List<String> target = new ArrayList<>();
  private final List<String> args = new ArrayList<>();
  private Path directory;
  private Predicate<String> dropEnv = name -> false;
  private final Map<String, String> env = new LinkedHashMap<>();
  private boolean noInput;
  Path stdout;
  Path stderr;
  private boolean append;
  Consumer<String> lines;
  Pattern ready;
  boolean killOnExit;

  JvmCommand(String java, List<String> verbatim) {
    this.java = java;
    this.verbatim = verbatim;
  }

  /** Pins it to {@code cpuList} ({@code taskset -c}); nothing when null or empty. */
  public JvmCommand cpus(String cpuList) {
    this.cpus = cpuList;
    return this;
  }

  /** JVM options, in the order given, before the main class or jar. */
  public JvmCommand options(String... values) {
    return options(List.of(values));
  }

  public JvmCommand options(List<String> values) {
    javaOnly("JVM options");
    options.addAll(values);
    return this;
  }

  public JvmCommand systemProperty(String key, String value) {
    return options("-D" + key + "=" + value);
  }

  /** The agent at this place among the options: {@link JvmProcess#agentOption}. */
  public JvmCommand agent(Path jar, String agentOptions) {
    return options(JvmProcess.agentOption(jar, agentOptions));
  }

  /** Runs {@code mainClass} from {@code classPath}. */
  public JvmCommand main(String classPath, String mainClass) {
    return target("-cp", classPath, mainClass);
  }

  /** Runs an executable jar, {@code java -jar}. */
  public JvmCommand jar(Path jar) {
    return target("-jar", jar.toString());
  }

  /** Runs a one-file program with the source launcher, {@code java Hello.java}. */
  public JvmCommand sourceFile(String file) {
    return target(file);
  }

  /** Arguments of the application (or of the script, after its command). */
  public JvmCommand args(String... values) {
    return args(List.of(values));
  }

  public JvmCommand args(List<String> values) {
    args.addAll(values);
    return this;
  }

  public JvmCommand directory(Path dir) {
    this.directory = dir;
    return this;
  }

  /** Leaves out the variables of this JVM's environment whose names {@code names} accepts. */
  public JvmCommand withoutEnv(Predicate<String> names) {
    this.dropEnv = names;
    return this;
  }

  /** A variable of its environment, on top of this JVM's. */
  public JvmCommand env(String name, String value) {
    env.put(name, value);
    return this;
  }

  public JvmCommand env(Map<String, String> values) {
    env.putAll(values);
    return this;
  }

  /** Its stdin reads {@code /dev/null}; by default it is a pipe that ends when this JVM does. */
  public JvmCommand noInput() {
    this.noInput = true;
    return this;
  }

  /** Stdout and stderr together into {@code file}, which starts empty. */
  public JvmCommand output(Path file) {
    return output(file, null);
  }

  /** Stdout into {@code out} and stderr into {@code err} (or into {@code out} when null). */
  public JvmCommand output(Path out, Path err) {
    this.stdout = out;
    this.stderr = err;
    return this;
  }

  /** Stdout and stderr together, appended to {@code file} (say, after the command line). */
  public JvmCommand appendOutput(Path file) {
    this.append = true;
    return output(file, null);
  }

  /**
   * Stdout and stderr together, copied line by line into {@code file} by a thread of its own, which
   * also hands each line to {@code each} as it comes (the moment a line is printed, or what to show
   * on a console).
   */
  public JvmCommand lines(Path file, Consumer<String> each) {
    this.lines = each;
    return output(file, null);
  }

  /** The output that says it is ready, for {@link JvmProcess#awaitReady}. */
  public JvmCommand ready(Pattern pattern) {
    this.ready = pattern;
    return this;
  }

  /** Kills it if this JVM exits while it still runs, e.g. when a test run is interrupted. */
  public JvmCommand killOnExit() {
    this.killOnExit = true;
    return this;
  }

  /** The command line it runs, for a log or a report. */
  public List<String> commandLine() {
    if (verbatim != null) {
      List<String> line = new ArrayList<>(verbatim);
      line.addAll(args);
      return line;
    }
    List<String> line = new ArrayList<>();
    if (cpus != null && !cpus.isEmpty()) {
      line.addAll(List.of("taskset", "-c", cpus));
    }
    line.add(java);
    line.addAll(options);
    line.addAll(target);
    line.addAll(args);
    return line;
  }

  public JvmProcess start() throws IOException {
    ProcessBuilder builder = new ProcessBuilder(commandLine());
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    builder.environment().keySet().removeIf(dropEnv);
    builder.environment().putAll(env);
    if (noInput) {
      builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }
    if (stdout == null) {
      builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true);
    } else {
      Files.createDirectories(stdout.toAbsolutePath().getParent());
      builder.redirectErrorStream(stderr == null);
      if (stderr != null) {
        builder.redirectError(stderr.toFile());
      }
      if (lines == null) {
        builder.redirectOutput(
            append
                ? ProcessBuilder.Redirect.appendTo(stdout.toFile())
                : ProcessBuilder.Redirect.to(stdout.toFile()));
      }
    }
    return new JvmProcess(this, builder.start());
  }

  private JvmCommand target(String... values) {
    javaOnly("a main class, jar or source file");
    if (!target.isEmpty()) {
      throw new IllegalStateException("already runs " + target);
    }
    target.addAll(List.of(values));
    return this;
  }

  private void javaOnly(String what) {
    if (verbatim != null) {
      throw new IllegalStateException(what + " only go into a java command line");
    }
  }
}

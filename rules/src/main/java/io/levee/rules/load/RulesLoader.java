package io.levee.rules.load;

import io.levee.rules.model.RuleSet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import org.yaml.snakeyaml.nodes.Node;

/**
 * The one way to turn a rules file into a {@link RuleSet}: bounded reading, safe YAML composition,
 * then validation of the whole file. Any error means no rules at all, so a half-valid file is never
 * applied. Thread-safe: nothing is shared between calls.
 */
public final class RulesLoader {
  /** Larger files are refused before they are read. */
  public static final int MAX_BYTES = 1024 * 1024;

  private RulesLoader() {}

  /** Loads the rules file at {@code file}; its path names it in errors. */
  public static LoadResult load(Path file) {
    String source = file.toString();
    Problems problems = new Problems(source);
    try {
      long size = Files.size(file);
      if (size > MAX_BYTES) {
        problems.at(1, 1, "", "rules file is " + mebibytes(size) + "; the limit is 1 MiB");
        return LoadResult.failed(problems.sorted());
      }
      byte[] bytes = readAtMost(file, MAX_BYTES + 1);
      if (bytes.length > MAX_BYTES) {
        problems.at(1, 1, "", "rules file is over 1 MiB, the limit");
        return LoadResult.failed(problems.sorted());
      }
      String text = decode(bytes, problems);
      return text == null ? LoadResult.failed(problems.sorted()) : parse(source, text);
    } catch (NoSuchFileException e) {
      problems.at(1, 1, "", "rules file not found");
    } catch (AccessDeniedException e) {
      problems.at(1, 1, "", "cannot read the rules file: permission denied");
    } catch (IOException e) {
      problems.at(1, 1, "", "cannot read the rules file: " + e.getMessage());
    }
    return LoadResult.failed(problems.sorted());
  }

  /** Loads rules from text; {@code sourceName} names it in errors (a path, or "&lt;attach&gt;"). */
  public static LoadResult parse(String sourceName, String yaml) {
    Problems problems = new Problems(sourceName);
    if (yaml.length() > MAX_BYTES) {
      problems.at(1, 1, "", "rules text is " + mebibytes(yaml.length()) + "; the limit is 1 MiB");
      return LoadResult.failed(problems.sorted());
    }
    String text = yaml.startsWith("\uFEFF") ? yaml.substring(1) : yaml;
    Node root = SafeYaml.compose(text, problems);
    if (problems.count() > 0) {
      return LoadResult.failed(problems.sorted());
    }
    RuleSet rules = RuleSetReader.read(root, sourceName, problems);
    return rules != null && problems.count() == 0
        ? LoadResult.of(rules)
        : LoadResult.failed(problems.sorted());
  }

  private static byte[] readAtMost(Path file, int limit) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buffer = new byte[limit];
      int n = 0;
      int read;
      while (n < limit && (read = in.read(buffer, n, limit - n)) > 0) {
        n += read;
      }
      byte[] bytes = new byte[n];
      System.arraycopy(buffer, 0, bytes, 0, n);
      return bytes;
    }
  }

  /** Strict UTF-8: a file in another encoding is reported, not misread. */
  private static String decode(byte[] bytes, Problems problems) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      int line = 1;
      int column = 1;
      for (int i = 0; i < in.position(); i++) {
        column = bytes[i] == '\n' ? 1 : column + 1;
        line += bytes[i] == '\n' ? 1 : 0;
      }
      problems.at(line, column, "", "rules file is not valid UTF-8 (byte " + in.position() + ")");
      return null;
    }
    decoder.flush(out);
    out.flip();
    return out.toString();
  }

  private static String mebibytes(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
  }
}

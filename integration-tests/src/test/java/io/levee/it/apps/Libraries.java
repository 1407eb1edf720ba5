package io.levee.it.apps;

import java.util.Map;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.matcher.ElementMatchers;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.Constructor;

/**
 * {@code /libs}: uses the application's own SnakeYAML 1.x and ByteBuddy at run time, the libraries
 * the agent also uses (shaded), and says which jar each class came from.
 */
public final class Libraries {
  private Libraries() {}

  public static String handle() {
    Lines out = new Lines();
    try {
      // Constructor(Class) exists in SnakeYAML 1.x only: a 2.x copy leaking in would fail here.
      Object doc = new Yaml(new Constructor(Map.class)).load("name: app\nitems: [1, 2]");
      Object made =
          new ByteBuddy()
              .subclass(Object.class)
              .method(ElementMatchers.named("toString"))
              .intercept(FixedValue.value("made by the app's byte buddy"))
              .make()
              .load(Libraries.class.getClassLoader())
              .getLoaded()
              .getDeclaredConstructor()
              .newInstance();
      out.put("outcome", "ok")
          .put("yaml", doc)
          .put("yamlJar", jarOf(Yaml.class))
          .put("bytebuddy", made)
          .put("bytebuddyJar", jarOf(ByteBuddy.class));
    } catch (Exception | LinkageError e) {
      out.exception(e);
    }
    return out.toString();
  }

  private static String jarOf(Class<?> type) {
    return type.getProtectionDomain().getCodeSource().getLocation().toString();
  }
}

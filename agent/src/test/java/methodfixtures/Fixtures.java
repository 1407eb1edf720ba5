package methodfixtures;

import java.io.IOException;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/**
 * Classes for the method kind's weaving tests, outside {@code io.levee} (whose classes the agent
 * never weaves).
 */
public final class Fixtures {
  private Fixtures() {}

  @Retention(RetentionPolicy.RUNTIME)
  public @interface Marked {}

  public interface Priced {
    String quote(String item) throws IOException;
  }

  public static class PricedImpl implements Priced {
    @Override
    public String quote(String item) {
      return "1 " + item;
    }

    public String helper() {
      return "not part of Priced";
    }

    public static String util() {
      return "static";
    }
  }

  @Marked
  public static class MarkedBase {
    public String work() {
      return "base";
    }
  }

  /** Carries {@link Marked} through its superclass, as a CGLIB subclass does its target's. */
  public static class MarkedSub extends MarkedBase {
    @Override
    public String work() {
      return "sub " + super.work();
    }

    String findOne() {
      return "one";
    }

    public String findAll() {
      return "all";
    }
  }

  public static class Unmarked {
    public String work() {
      return "plain";
    }
  }

  public interface Repo<T> {
    T find(String id);

    void save(T item);

    int count();
  }

  /** Its find and save are generic overrides: the class has bridges for Repo's descriptors. */
  public static class OrderRepo implements Repo<String> {
    @Override
    public String find(String id) {
      return "order " + id;
    }

    @Override
    public void save(String item) {}

    @Override
    public int count() {
      return 0;
    }

    public String notRepos() {
      return "own";
    }
  }

  /** Named like a class CGLIB generates for {@link MarkedBase}: its own methods are plumbing. */
  public static class MarkedBase$$EnhancerByTest extends MarkedBase {
    @Override
    public String work() {
      return "intercepted " + super.work();
    }

    public void setCallbacks(Object[] callbacks) {}
  }

  public static class CheckedFailure extends Exception {
    public CheckedFailure(String message) {
      super(message);
    }
  }

  public static class UncheckedFailure extends RuntimeException {
    public UncheckedFailure(String message) {
      super(message);
    }
  }
}

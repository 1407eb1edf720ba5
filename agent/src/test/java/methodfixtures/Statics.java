package methodfixtures;

/** Static and instance methods of every argument shape, for the method kind's woven code. */
public class Statics {
  public static int twice(int x) {
    return 2 * x;
  }

  public static String join(long a, double b, String c, int[] d) {
    String s = a + "/" + b + "/" + c + "/" + d.length;
    if (c == null) {
      throw new IllegalArgumentException("no c");
    }
    return s;
  }

  public static void nothing() {}

  public long instance(long a, int b) {
    long r = a;
    for (int i = 0; i < b; i++) {
      r += i;
    }
    return r;
  }
}

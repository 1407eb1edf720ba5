package io.levee.agent.servlet;

/**
 * Base64url decoding (RFC 4648 §5) of part of a string, for the payload of a JWT: {@code
 * java.util.Base64} would need the part copied out first and throws on a bad character, and a
 * malformed token sent on every request should cost no exception.
 */
final class Base64Url {
  /** The value of each base64url character, -1 for the others. */
  private static final byte[] BASE64URL = new byte[128];

  static {
    java.util.Arrays.fill(BASE64URL, (byte) -1);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (int i = 0; i < alphabet.length(); i++) {
      BASE64URL[alphabet.charAt(i)] = (byte) i;
    }
  }

  private Base64Url() {}

  /**
   * {@code text[start, end)} base64url-decoded, trailing {@code =} padding allowed but not needed;
   * null when it is empty or not base64url.
   */
  static byte[] decode(String text, int start, int end) {
    for (int pad = 0; pad < 2 && end > start && text.charAt(end - 1) == '='; pad++) {
      end--;
    }
    int length = end - start;
    if (length == 0 || length % 4 == 1) {
      return null;
    }
    byte[] out = new byte[length / 4 * 3 + Math.max(0, length % 4 - 1)];
    int bits = 0;
    int held = 0;
    int o = 0;
    for (int i = start; i < end; i++) {
      char c = text.charAt(i);
      int v = c < 128 ? BASE64URL[c] : -1;
      if (v < 0) {
        return null;
      }
      bits = bits << 6 | v;
      held += 6;
      if (held >= 8) {
        held -= 8;
        out[o++] = (byte) (bits >> held);
      }
    }
    return out;
  }
}

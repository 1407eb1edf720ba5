package io.levee.bootstrap.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A response body stream that reads exactly as the one it wraps and copies what passes through it
 * into a {@link BodyTee}: the end of the stream ends the copy, a close before it abandons it (see
 * {@link BodyTee#closed()}). {@code skip} and {@code mark} are refused ({@code markSupported}
 * false), so every byte the application gets is seen.
 */
public final class TeeInputStream extends FilterInputStream {
  private final BodyTee tee;

  public TeeInputStream(InputStream in, BodyTee tee) {
    super(in);
    this.tee = tee;
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b < 0) {
      tee.end();
    } else {
      tee.copy(b);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    if (n < 0) {
      tee.end();
    } else {
      tee.copy(b, off, n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    tee.abandon();
    return in.skip(n);
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  @Override
  public void mark(int readlimit) {}

  @Override
  public void reset() throws IOException {
    throw new IOException("mark/reset not supported");
  }

  @Override
  public void close() throws IOException {
    try {
      tee.closed();
    } finally {
      in.close();
    }
  }
}

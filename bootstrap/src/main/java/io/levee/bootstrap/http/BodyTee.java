package io.levee.bootstrap.http;

import io.levee.bootstrap.HookErrors;

/**
 * A copy of the first {@link LastGoodKeeper#maxBody} bytes of a body as the application reads it,
 * handed to the keeper when the body ends within that bound: at its end of stream, or as soon as
 * the length its headers announced ({@link LastGoodKeeper#expectedLength}) has been read, since
 * many readers (a JSON parser, {@code readFully}) stop there and close. A body that grows past the
 * bound, or is closed before its end, is not kept. One reader at a time, as for the stream it
 * copies.
 *
 * <p>Every method runs inside the application's own read or close, so none of them throws: a
 * failure of the copy (no memory for it, the keeper's own error) gives the copy up, is reported,
 * and leaves the application's read as it was.
 */
public final class BodyTee {
  private final LastGoodKeeper keeper;
  private byte[] copy = new byte[256];
  private int length;
  private boolean done;

  public BodyTee(LastGoodKeeper keeper) {
    this.keeper = keeper;
  }

  public void copy(int b) {
    try {
      if (room(1)) {
        copy[length++] = (byte) b;
        endIfWhole();
      }
    } catch (Throwable t) {
      failed(t);
    }
  }

  public void copy(byte[] b, int off, int len) {
    try {
      if (len > 0 && room(len)) {
        System.arraycopy(b, off, copy, length, len);
        length += len;
        endIfWhole();
      }
    } catch (Throwable t) {
      failed(t);
    }
  }

  /** The body ended: the copy, if whole, goes to the keeper, once. */
  public void end() {
    if (!done) {
      done = true;
      byte[] whole = copy;
      copy = null;
      try {
        keeper.keep(whole, length);
      } catch (Throwable t) {
        HookErrors.report(t);
      }
    }
  }

  /**
   * The body was closed: kept if every byte its headers announced was read (which {@link #copy}
   * already ended, unless there were none), else abandoned.
   */
  public void closed() {
    if (!done && keeper.expectedLength >= 0 && length == keeper.expectedLength) {
      end();
    } else {
      abandon();
    }
  }

  /** The body was given up before its end, or grew too long: nothing is kept. */
  public void abandon() {
    done = true;
    copy = null;
  }

  private void failed(Throwable t) {
    abandon();
    HookErrors.report(t);
  }

  private void endIfWhole() {
    if (!done && length == keeper.expectedLength) {
      end();
    }
  }

  private boolean room(int more) {
    if (done) {
      return false;
    }
    if (length + more > keeper.maxBody || length + more < 0) {
      abandon();
      return false;
    }
    if (length + more > copy.length) {
      byte[] bigger = new byte[Math.min(keeper.maxBody, Math.max(length + more, 2 * copy.length))];
      System.arraycopy(copy, 0, bigger, 0, length);
      copy = bigger;
    }
    return true;
  }
}

package io.levee.bootstrap.http;

/**
 * Where an admitted call's good answer goes to become the last good answer of its URL ({@code
 * on-block.fallback.last-good}, SPEC §5.1): the agent gives one for a response worth keeping, and
 * the client's calls hand it the body once it has been read to its end, through a {@link BodyTee},
 * so the application reads the live response as it would without Levee.
 */
public abstract class LastGoodKeeper {
  /** Bodies longer than this are not kept. */
  public final int maxBody;

  /**
   * The length the answer's {@code Content-Length} announced, or -1 when it announced none: a body
   * read up to that length is whole even if its reader closes it without reading its end.
   */
  public final long expectedLength;

  protected LastGoodKeeper(int maxBody) {
    this(maxBody, -1);
  }

  protected LastGoodKeeper(int maxBody, long expectedLength) {
    this.maxBody = maxBody;
    this.expectedLength = expectedLength;
  }

  /** The whole body, {@code length} bytes of {@code body}, at most {@link #maxBody}. */
  public abstract void keep(byte[] body, int length);
}

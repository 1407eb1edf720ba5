package io.levee.agent.okhttp;

import io.levee.bootstrap.Blocked;
import io.levee.bootstrap.HookErrors;
import io.levee.bootstrap.Levee;
import io.levee.bootstrap.Permit;
import io.levee.bootstrap.http.BodyTee;
import io.levee.bootstrap.http.HttpAnswer;
import io.levee.bootstrap.http.LastGoodKeeper;
import io.levee.bootstrap.http.TeeInputStream;
import io.levee.bootstrap.okhttp.OkHttpCalls;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Headers;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.AsyncTimeout;
import okio.Okio;
import okio.Timeout;

/**
 * The OkHttp calls, defined by the agent beside each copy of OkHttp it weaves. Compiled against
 * OkHttp 4.12 but using only members that OkHttp 3.14 and 5.x have with the same descriptors (the
 * static {@code ResponseBody.create(MediaType, ...)} forms are deprecated in 4.x and 5.x, and the
 * only ones 3.14 has), and of okio only what okio 1.x, 2.x and 3.x share. One class, without nested
 * or lambda classes, as the loader that defines it defines that class alone.
 */
public final class OkHttpChainCalls implements OkHttpCalls {
  @Override
  public Object enter(Object chain) {
    Interceptor.Chain c = (Interceptor.Chain) chain;
    Request request = c.request();
    Object token = Levee.httpEnter(request.method(), request.url().toString());
    if (token instanceof Permit) {
      Permit permit = (Permit) token;
      try {
        applyCallTimeout(c.call(), (long) permit.connectTimeoutMillis + permit.readTimeoutMillis);
      } catch (Throwable t) {
        // The call runs without the rule's timeout; the permit stays with it, to be given back.
        HookErrors.report(t);
      }
    }
    return token;
  }

  /**
   * Sets the call timeout of {@code call} to {@code millis} when the application left it unset
   * (OkHttp's connect and read timeouts are the client's and never unset). The call entered its
   * timeout before the interceptors ran, which OkHttp skips when none is set; entering it here
   * starts the clock, and the call's own exit when it ends stops it, as for a timeout set before.
   */
  static boolean applyCallTimeout(Call call, long millis) {
    if (millis <= 0) {
      return false;
    }
    Timeout timeout = call.timeout();
    if (!(timeout instanceof AsyncTimeout)
        || timeout.timeoutNanos() != 0
        || timeout.hasDeadline()) {
      return false;
    }
    timeout.timeout(millis, TimeUnit.MILLISECONDS);
    ((AsyncTimeout) timeout).enter();
    return true;
  }

  @Override
  public Object fallback(Object chain, Blocked blocked) {
    HttpAnswer answer = HttpAnswer.of(blocked);
    Response.Builder response =
        new Response.Builder()
            .request(((Interceptor.Chain) chain).request())
            .protocol(Protocol.HTTP_1_1)
            .code(answer.status)
            .message(answer.reason);
    for (int i = 0; i < answer.headerCount(); i++) {
      response.addHeader(answer.headerName(i), answer.headerValue(i));
    }
    String type = answer.header("Content-Type");
    long now = System.currentTimeMillis();
    return response
        .body(ResponseBody.create(type == null ? null : MediaType.parse(type), answer.body()))
        .sentRequestAtMillis(now)
        .receivedResponseAtMillis(now)
        .build();
  }

  @Override
  public int status(Object response) {
    return ((Response) response).code();
  }

  @Override
  public Object keepLastGood(Object chain, Object permit, Object response) {
    Response r = (Response) response;
    Request request = ((Interceptor.Chain) chain).request();
    ResponseBody body = r.body();
    if (body == null || !"GET".equals(request.method()) || r.code() < 200 || r.code() > 299) {
      return r;
    }
    LastGoodKeeper keeper =
        Levee.lastGood(permit, "GET", request.url().toString(), r.code(), headers(r.headers()));
    if (keeper == null) {
      return r;
    }
    // Read through the tee, the application gets the same bytes as it reads them; closing the
    // copy closes the original body.
    TeeInputStream teed = new TeeInputStream(body.byteStream(), new BodyTee(keeper));
    ResponseBody copy =
        ResponseBody.create(
            body.contentType(), body.contentLength(), Okio.buffer(Okio.source(teed)));
    return r.newBuilder().body(copy).build();
  }

  private static String[] headers(Headers headers) {
    String[] pairs = new String[2 * headers.size()];
    for (int i = 0; i < headers.size(); i++) {
      pairs[2 * i] = headers.name(i);
      pairs[2 * i + 1] = headers.value(i);
    }
    return pairs;
  }
}

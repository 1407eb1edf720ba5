package io.levee.it.http;

/** OkHttp 3.14 (okio 1.x), the last Java line of OkHttp, from {@code client-lines/okhttp3}. */
class OkHttp3Jdk17IT extends OkHttpContract {
  @Override
  protected String line() {
    return "okhttp3";
  }

  @Override
  protected String okhttpJar() {
    return "okhttp-3.14.9.jar";
  }
}

package io.levee.it.http;

/** OkHttp 5.x ({@code okhttp-jvm}, okio 3.16, Kotlin 2), from {@code client-lines/okhttp5}. */
class OkHttp5Jdk17IT extends OkHttpContract {
  @Override
  protected String line() {
    return "okhttp5";
  }

  @Override
  protected String okhttpJar() {
    return "okhttp-jvm-5.3.2.jar";
  }
}

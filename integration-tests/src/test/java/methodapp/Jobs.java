package methodapp;

import io.levee.it.apps.Lines;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import methodapp.gen.Job;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * Many classes of one interface, made at run time with the application's own ByteBuddy, as a
 * framework generating proxies or handlers would: {@code /generate?count=N} defines N more
 * implementations of {@link Job} ({@code methodapp.gen.JobImpl<i>}), {@code /jobs} calls each once.
 */
final class Jobs {
  private final List<Job> jobs = new CopyOnWriteArrayList<>();

  synchronized String generate(Map<String, String> q) throws Exception {
    int count = Integer.parseInt(q.getOrDefault("count", "1"));
    MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(Job.class, MethodHandles.lookup());
    for (int i = 0; i < count; i++) {
      Class<? extends Job> type =
          new ByteBuddy()
              .subclass(Job.class)
              .name(String.format("methodapp.gen.JobImpl%05d", jobs.size()))
              .method(ElementMatchers.named("work"))
              .intercept(FixedValue.value("done"))
              .make()
              .load(Job.class.getClassLoader(), ClassLoadingStrategy.UsingLookup.of(lookup))
              .getLoaded();
      jobs.add(type.getConstructor().newInstance());
    }
    return new Lines().put("generated", jobs.size()).toString();
  }

  String callEach(Map<String, String> q) {
    int returned = 0;
    int threw = 0;
    for (Job job : jobs) {
      try {
        job.work("x");
        returned++;
      } catch (RuntimeException e) {
        threw++;
      }
    }
    return new Lines()
        .put("jobs", jobs.size())
        .put("returned", returned)
        .put("threw", threw)
        .toString();
  }
}

package io.levee.agent.instrument;

import io.levee.agent.log.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.List;

/** Retransformation of many loaded classes without one long stop of the application. */
final class Batches {
  private Batches() {}

  /**
   * Retransforms {@code classes} {@code batch} at a time with {@code pauseMillis} between batches
   * (each retransformation stops the world). A batch that fails is retried class by class, so one
   * class that cannot be retransformed does not keep the others as they were.
   */
  static void retransform(
      Instrumentation inst, List<Class<?>> classes, int batch, long pauseMillis, AgentLog log) {
    for (int from = 0; from < classes.size(); from += batch) {
      if (from > 0 && pauseMillis > 0) {
        pause(pauseMillis);
      }
      List<Class<?>> part = classes.subList(from, Math.min(classes.size(), from + batch));
      try {
        inst.retransformClasses(part.toArray(new Class<?>[0]));
      } catch (Throwable batchError) {
        for (Class<?> type : part) {
          try {
            inst.retransformClasses(type);
          } catch (Throwable e) {
            log.warn("could not retransform " + type.getName(), e);
          }
        }
      }
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

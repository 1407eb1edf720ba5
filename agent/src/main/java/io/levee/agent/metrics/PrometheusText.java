package io.levee.agent.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Writes a Micrometer registry in the Prometheus text exposition format 0.0.4, small enough that
 * the agent need not ship the Prometheus client. Names follow Prometheus conventions: dots become
 * underscores, counters end in {@code _total}, timers become a summary without quantiles ({@code
 * _seconds_count}, {@code _seconds_sum}), gauges keep their name. Each metric is written once with
 * its {@code # HELP} and {@code # TYPE} lines followed by all its series, sorted so the output is
 * stable. Any other kind of meter is written untyped from its measurements.
 */
public final class PrometheusText {
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private static final Comparator<Meter> BY_TAGS =
      new Comparator<Meter>() {
        @Override
        public int compare(Meter a, Meter b) {
          return labels(a.getId().getTags()).compareTo(labels(b.getId().getTags()));
        }
      };

  private PrometheusText() {}

  public static String write(MeterRegistry registry) {
    Map<String, List<Meter>> families = new TreeMap<String, List<Meter>>();
    for (Meter meter : registry.getMeters()) {
      String family = family(meter);
      List<Meter> list = families.get(family);
      if (list == null) {
        list = new ArrayList<Meter>();
        families.put(family, list);
      }
      list.add(meter);
    }
    StringBuilder out = new StringBuilder(4096);
    for (Map.Entry<String, List<Meter>> e : families.entrySet()) {
      String family = e.getKey();
      List<Meter> meters = e.getValue();
      meters.sort(BY_TAGS);
      Meter first = meters.get(0);
      String help = first.getId().getDescription();
      if (help != null && !help.isEmpty()) {
        out.append("# HELP ").append(family).append(' ').append(escapeHelp(help)).append('\n');
      }
      out.append("# TYPE ").append(family).append(' ').append(type(first)).append('\n');
      for (Meter meter : meters) {
        series(out, family, meter);
      }
    }
    return out.toString();
  }

  private static String family(Meter meter) {
    String base = sanitize(meter.getId().getName());
    if (meter instanceof Counter || meter instanceof FunctionCounter) {
      return base + "_total";
    }
    if (meter instanceof Timer || meter instanceof FunctionTimer || meter instanceof TimeGauge) {
      return base + "_seconds";
    }
    return base;
  }

  private static String type(Meter meter) {
    if (meter instanceof Counter || meter instanceof FunctionCounter) {
      return "counter";
    }
    if (meter instanceof Timer || meter instanceof FunctionTimer) {
      return "summary";
    }
    if (meter instanceof Gauge) {
      return "gauge";
    }
    return "untyped";
  }

  private static void series(StringBuilder out, String family, Meter meter) {
    String labels = labels(meter.getId().getTags());
    if (meter instanceof Counter) {
      line(out, family, labels, ((Counter) meter).count());
    } else if (meter instanceof FunctionCounter) {
      line(out, family, labels, ((FunctionCounter) meter).count());
    } else if (meter instanceof Timer) {
      Timer t = (Timer) meter;
      line(out, family + "_count", labels, t.count());
      line(out, family + "_sum", labels, t.totalTime(TimeUnit.SECONDS));
    } else if (meter instanceof FunctionTimer) {
      FunctionTimer t = (FunctionTimer) meter;
      line(out, family + "_count", labels, t.count());
      line(out, family + "_sum", labels, t.totalTime(TimeUnit.SECONDS));
    } else if (meter instanceof TimeGauge) {
      line(out, family, labels, ((TimeGauge) meter).value(TimeUnit.SECONDS));
    } else if (meter instanceof Gauge) {
      line(out, family, labels, ((Gauge) meter).value());
    } else {
      for (Measurement m : meter.measure()) {
        String suffix = sanitize(m.getStatistic().getTagValueRepresentation());
        line(out, family + "_" + suffix, labels, m.getValue());
      }
    }
  }

  private static void line(StringBuilder out, String name, String labels, double value) {
    out.append(name).append(labels).append(' ').append(number(value)).append('\n');
  }

  static String labels(List<Tag> tags) {
    if (tags.isEmpty()) {
      return "";
    }
    StringBuilder s = new StringBuilder("{");
    for (Tag tag : tags) {
      if (s.length() > 1) {
        s.append(',');
      }
      s.append(sanitize(tag.getKey()))
          .append("=\"")
          .append(escapeValue(tag.getValue()))
          .append('"');
    }
    return s.append('}').toString();
  }

  static String number(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return Double.toString(value);
  }

  /** Prometheus names allow {@code [a-zA-Z_:][a-zA-Z0-9_:]*}; anything else becomes {@code _}. */
  static String sanitize(String name) {
    StringBuilder s = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || c == '_'
              || c == ':'
              || (i > 0 && c >= '0' && c <= '9');
      s.append(ok ? c : '_');
    }
    return s.toString();
  }

  static String escapeValue(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  private static String escapeHelp(String help) {
    return help.replace("\\", "\\\\").replace("\n", "\\n");
  }
}

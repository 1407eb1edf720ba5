package io.levee.load.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.levee.load.gen.Bin;
import io.levee.load.gen.Series;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenLoopPointTest {
  @Test
  void sumsEveryStreamFromTheFirstMeasuredSecond() {
    Series series = new Series(3, List.of("a", "b"));
    Bin warm = series.bin("a", 0);
    warm.offered.add(100);
    warm.good.add(100);
    for (String stream : List.of("a", "b")) {
      for (int t = 1; t < 3; t++) {
        Bin bin = series.bin(stream, t);
        bin.offered.add(10);
        bin.good.add(6);
        bin.late.add(1);
        bin.rejected.add(2);
        bin.timeouts.add(1);
        bin.recordAdmitted(100);
      }
    }

    assertThat(OpenLoopPoint.json(series, 1))
        .startsWith(
            "{\"seconds\":2,\"offered\":40,\"good\":24,\"late\":4,\"rejected\":8,\"timeouts\":4,"
                + "\"errors\":0,\"p50_us\":100,")
        .endsWith("\"p99_us\":100}");
  }
}

package io.levee.it.cluster;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * The plot of one fleet size of {@link ClusterAccuracyBenchmark}, drawn headless with Java2D as the
 * load benchmark's plotter draws its own: one panel per scenario, admitted per second over R
 * against time, with the trailing 10-s mean, each instance's own count, R dashed, the 0.9–1.05 R
 * band shaded and the warm-up greyed.
 */
final class AccuracyPlot {
  private static final Color TOTAL = new Color(0x1f77b4);
  private static final Color WINDOW = new Color(0xd62728);
  private static final Color BAND = new Color(0xe2f0d9);
  private static final Color WARM_UP = new Color(0xf2f2f2);
  private static final Color[] INSTANCES = {
    new Color(0xff7f0e),
    new Color(0x2ca02c),
    new Color(0x9467bd),
    new Color(0x8c564b),
    new Color(0xe377c2),
    new Color(0x7f7f7f)
  };

  private static final int W = 1100;
  private static final int PANEL = 210;
  private static final int GAP = 50;
  private static final int LEFT = 60;
  private static final int RIGHT = 210;
  private static final int TOP = 60;
  private static final Stroke DASHED =
      new BasicStroke(
          1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {6f, 4f}, 0f);

  private AccuracyPlot() {}

  static void draw(Path png, List<AccuracySeries> runs) throws IOException {
    System.setProperty("java.awt.headless", "true");
    AccuracySeries first = runs.get(0);
    int h = TOP + runs.size() * (PANEL + GAP);
    BufferedImage img = new BufferedImage(W, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, W, h);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    g.drawString(
        String.format(
            Locale.ROOT,
            "Cluster rate limit, %d JVMs sharing R = %.0f/s (burst %.0f): admitted per second / R",
            first.instances,
            first.rate,
            first.burst),
        LEFT,
        24);
    legend(g, first.instances);
    double hi = 1.6;
    for (AccuracySeries s : runs) {
      for (int i = 0; i < s.seconds(); i++) {
        hi = Math.max(hi, Math.ceil((s.received[i] / s.rate + 0.05) * 10) / 10);
      }
    }
    for (int k = 0; k < runs.size(); k++) {
      panel(g, TOP + 20 + k * (PANEL + GAP), runs.get(k), hi);
    }
    g.dispose();
    ImageIO.write(img, "png", png.toFile());
  }

  private static void panel(Graphics2D g, int y0, AccuracySeries s, double hi) {
    int n = s.seconds();
    int x1 = W - RIGHT;
    g.setColor(WARM_UP);
    g.fillRect(LEFT, y0, x(s.warmUp, n) - LEFT, PANEL);
    g.setColor(BAND);
    g.fillRect(
        LEFT,
        y(AccuracySeries.HIGH, y0, hi),
        x1 - LEFT,
        y(AccuracySeries.LOW, y0, hi) - y(AccuracySeries.HIGH, y0, hi));
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    for (double t = 0; t <= hi + 1e-9; t += 0.5) {
      int y = y(t, y0, hi);
      g.setColor(new Color(0xdddddd));
      g.setStroke(new BasicStroke(1f));
      g.drawLine(LEFT + 1, y, x1 - 1, y);
      g.setColor(Color.BLACK);
      g.drawString(String.format(Locale.ROOT, "%.1f", t), LEFT - 28, y + 4);
    }
    g.setColor(Color.BLACK);
    g.setStroke(DASHED);
    g.drawLine(LEFT, y(1, y0, hi), x1, y(1, y0, hi));
    g.drawString("R", x1 + 4, y(1, y0, hi) + 4);
    g.setColor(Color.DARK_GRAY);
    g.drawString("warm-up", LEFT + 4, y0 + 12);
    if (s.scenario.equals("moving")) {
      int x = x(s.warmUp + s.measured / 2, n);
      g.setColor(Color.DARK_GRAY);
      g.drawLine(x, y0, x, y0 + PANEL);
      g.drawString("load moves to instance 1", x + 4, y0 + 12);
    }
    for (int i = s.instances - 1; i >= 0; i--) {
      double[] v = new double[n];
      for (int t = 0; t < n; t++) {
        v[t] = s.admittedBy[i][t] / s.rate;
      }
      line(g, v, y0, hi, INSTANCES[i % INSTANCES.length], 1.2f);
    }
    double[] total = new double[n];
    double[] window = new double[n];
    for (int t = 0; t < n; t++) {
      total[t] = s.received[t] / s.rate;
      window[t] = s.trailingWindow(t);
    }
    line(g, total, y0, hi, TOTAL, 2.4f);
    line(g, window, y0, hi, WINDOW, 2.0f);
    g.setStroke(new BasicStroke(1f));
    g.setColor(Color.BLACK);
    g.drawRect(LEFT, y0, x1 - LEFT, PANEL);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
    g.drawString(title(s), LEFT, y0 - 6);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    for (int t = 0; t <= n; t++) {
      int second = t - s.warmUp;
      if (second % 5 == 0) {
        g.drawString(Integer.toString(second), x(t, n) - 4, y0 + PANEL + 14);
      }
    }
    g.drawString("s", x1 + 14, y0 + PANEL + 14);
  }

  private static String title(AccuracySeries s) {
    double offered = s.offered(s.warmUp);
    switch (s.scenario) {
      case "even":
        return String.format(
            Locale.ROOT,
            "even: %.0f/s offered, %.0f/s on each instance",
            offered,
            offered / s.instances);
      case "skewed":
        return String.format(
            Locale.ROOT, "skewed: %.0f/s offered, all on instance 0, the others idle", offered);
      default:
        return String.format(
            Locale.ROOT,
            "moving: %.0f/s offered on instance 0, from second %d on instance 1",
            offered,
            s.measured / 2);
    }
  }

  private static void legend(Graphics2D g, int instances) {
    int x = W - RIGHT + 20;
    int y = TOP + 30;
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    y = entry(g, x, y, TOTAL, 4, "fleet, at the partner");
    y = entry(g, x, y, WINDOW, 3, "fleet, last 10 s");
    for (int i = 0; i < instances; i++) {
      y = entry(g, x, y, INSTANCES[i % INSTANCES.length], 2, "instance " + i);
    }
    g.setColor(BAND);
    g.fillRect(x, y - 8, 14, 10);
    g.setColor(Color.BLACK);
    g.drawString("0.9 R to 1.05 R", x + 20, y + 1);
  }

  private static int entry(Graphics2D g, int x, int y, Color c, int thickness, String label) {
    g.setColor(c);
    g.fillRect(x, y - 4, 14, thickness);
    g.setColor(Color.BLACK);
    g.drawString(label, x + 20, y + 1);
    return y + 20;
  }

  private static void line(Graphics2D g, double[] v, int y0, double hi, Color c, float width) {
    g.setColor(c);
    g.setStroke(new BasicStroke(width));
    int px = -1;
    int py = -1;
    for (int t = 0; t < v.length; t++) {
      if (Double.isNaN(v[t])) {
        px = -1;
        continue;
      }
      int x = (x(t, v.length) + x(t + 1, v.length)) / 2;
      int y = y(v[t], y0, hi);
      if (px >= 0) {
        g.drawLine(px, py, x, y);
      }
      px = x;
      py = y;
    }
  }

  /** The left edge of second {@code t} of {@code n}. */
  private static int x(int t, int n) {
    return LEFT + t * (W - LEFT - RIGHT) / n;
  }

  private static int y(double v, int y0, double hi) {
    double f = Math.max(0, Math.min(1, v / hi));
    return y0 + PANEL - (int) Math.round(f * PANEL);
  }
}

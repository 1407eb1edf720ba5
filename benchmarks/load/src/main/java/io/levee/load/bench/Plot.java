package io.levee.load.bench;

import io.levee.load.app.Contenders;
import io.levee.load.gen.Phase;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * A small headless line plotter: one PNG per scenario with three panels over time (goodput as a
 * fraction of C; admitted p99 on a log scale; the contender's limit on a log scale), one colour per
 * contender, phase boundaries as dashed lines.
 */
final class Plot {
  /** By the contender's place in {@link Contenders#NAMES}, so a contender keeps its colour. */
  private static final Color[] COLOURS = {
    new Color(0x555555),
    new Color(0x1f77b4),
    new Color(0xff7f0e),
    new Color(0x9467bd),
    new Color(0x8c564b),
    new Color(0x2ca02c),
    new Color(0xd62728)
  };

  private static final int W = 1100;
  private static final int PANEL = 260;
  private static final int LEFT = 70;
  private static final int RIGHT = 190;
  private static final int TOP = 40;

  private Plot() {}

  static void draw(Path png, String scenario, List<Phase> phases, Map<String, double[][]> curves)
      throws IOException {
    System.setProperty("java.awt.headless", "true");
    int h = TOP + 3 * (PANEL + 40) + 10;
    BufferedImage img = new BufferedImage(W, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, W, h);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    g.drawString("Scenario " + scenario + " (per-second medians over runs; /cpu)", LEFT, 22);
    int n = curves.values().iterator().next()[0].length;
    String[] titles = {"goodput / C", "admitted p99 (ms, log)", "limit (log)"};
    for (int k = 0; k < 3; k++) {
      int y0 = TOP + k * (PANEL + 40);
      double lo = k == 0 ? 0 : 1;
      double hi = k == 0 ? 2.2 : (k == 1 ? 4000 : 1000);
      boolean log = k > 0;
      axes(g, y0, n, lo, hi, log, titles[k], phases);
      int c = 0;
      for (Map.Entry<String, double[][]> e : curves.entrySet()) {
        boolean levee = e.getKey().equals("levee") || e.getKey().equals(Priorities.RANKED);
        int index = Contenders.NAMES.indexOf(levee ? "levee" : e.getKey());
        g.setColor(COLOURS[(index < 0 ? COLOURS.length - 1 : index) % COLOURS.length]);
        g.setStroke(new BasicStroke(levee ? 2.6f : 1.5f));
        double[] v = e.getValue()[k];
        int px = -1;
        int py = -1;
        for (int i = 0; i < n; i++) {
          if (Double.isNaN(v[i])) {
            px = -1;
            continue;
          }
          int x = LEFT + (int) ((i + 0.5) * (W - LEFT - RIGHT) / n);
          int y = y(v[i], y0, lo, hi, log);
          if (px >= 0) {
            g.drawLine(px, py, x, y);
          }
          px = x;
          py = y;
        }
        if (k == 0) {
          g.fillRect(W - RIGHT + 15, TOP + 10 + c * 20, 14, 4);
          g.setColor(Color.BLACK);
          g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
          g.drawString(e.getKey(), W - RIGHT + 35, TOP + 16 + c * 20);
        }
        c++;
      }
    }
    g.dispose();
    ImageIO.write(img, "png", png.toFile());
  }

  private static void axes(
      Graphics2D g,
      int y0,
      int n,
      double lo,
      double hi,
      boolean log,
      String title,
      List<Phase> phases) {
    int x1 = W - RIGHT;
    g.setStroke(new BasicStroke(1f));
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    g.setColor(Color.BLACK);
    g.drawString(title, LEFT, y0 - 4);
    g.drawRect(LEFT, y0, x1 - LEFT, PANEL);
    double[] ticks = log ? new double[] {1, 10, 100, 1000} : new double[] {0, 0.5, 1, 1.5, 2};
    for (double t : ticks) {
      if (t < lo || t > hi) {
        continue;
      }
      int y = y(t, y0, lo, hi, log);
      g.setColor(new Color(0xdddddd));
      g.drawLine(LEFT + 1, y, x1 - 1, y);
      g.setColor(Color.BLACK);
      g.drawString(Stats.num(t), LEFT - 40, y + 4);
    }
    int at = 0;
    g.setStroke(
        new BasicStroke(
            1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {4f, 4f}, 0f));
    for (Phase p : phases) {
      int x = LEFT + at * (x1 - LEFT) / n;
      g.setColor(new Color(0x999999));
      g.drawLine(x, y0, x, y0 + PANEL);
      g.setColor(Color.DARK_GRAY);
      g.drawString(p.name(), x + 3, y0 + 12);
      at += p.seconds();
    }
    g.setStroke(new BasicStroke(1f));
    g.setColor(Color.BLACK);
    for (int s = 0; s <= n; s += 5) {
      g.drawString(Integer.toString(s), LEFT + s * (x1 - LEFT) / n - 4, y0 + PANEL + 14);
    }
    g.drawString("s", x1 + 4, y0 + PANEL + 14);
  }

  private static int y(double v, int y0, double lo, double hi, boolean log) {
    double f =
        log
            ? (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))
            : (v - lo) / (hi - lo);
    f = Math.max(0, Math.min(1, f));
    return y0 + PANEL - (int) (f * PANEL);
  }
}

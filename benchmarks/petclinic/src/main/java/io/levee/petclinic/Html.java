package io.levee.petclinic;

/** The pages' HTML, built as text: a template engine is not worth a dependency here. */
final class Html {
  private final StringBuilder out = new StringBuilder(4096);

  Html(String title) {
    out.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
        .append(escape(title))
        .append("</title></head><body><h1>")
        .append(escape(title))
        .append("</h1>\n");
  }

  Html raw(String html) {
    out.append(html);
    return this;
  }

  Html text(Object value) {
    out.append(escape(String.valueOf(value)));
    return this;
  }

  /** A table row of escaped cells. */
  Html row(Object... cells) {
    out.append("<tr>");
    for (Object cell : cells) {
      out.append("<td>").append(escape(String.valueOf(cell))).append("</td>");
    }
    out.append("</tr>\n");
    return this;
  }

  String end() {
    return out.append("</body></html>\n").toString();
  }

  static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}

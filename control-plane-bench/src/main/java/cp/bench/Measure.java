package cp.bench;

import java.util.Locale;

/**
 * One row of the results table: what was measured, the value, the target and whether it was met.
 *
 * @param met null for rows that only report (no target)
 * @param detail how the value was obtained (absolute numbers behind a ratio)
 */
public record Measure(Id id, String what, String value, String target, Boolean met, String detail) {

  /** The measures of the issues (P1-P6, B7 from issue 21, P9 from issue 23), plus the heap report. */
  public enum Id {
    P1, P2, P3, P4, P5, P6, P7, P8, P9, B7, HEAP;

    /** Parses "p1", "P1", "heap". */
    public static Id parse(String s) {
      return valueOf(s.trim().toUpperCase(Locale.ROOT));
    }
  }

  public static Measure target(Id id, String what, String value, String target, boolean met, String detail) {
    return new Measure(id, what, value, target, met, detail);
  }

  public static Measure info(Id id, String what, String value, String detail) {
    return new Measure(id, what, value, "–", null, detail);
  }

  public String status() {
    return met == null ? "info" : met ? "PASS" : "MISS";
  }

  /**
   * A ratio with three decimals and an "x" (1.031x): with two, a ratio just over its target
   * (1.0504 against 1.05) would print as the target itself next to MISS.
   */
  static String ratio(double r) {
    return String.format(Locale.ROOT, "%.3fx", r);
  }
}

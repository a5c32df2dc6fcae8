package cp.eval;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of two replies, line by line (the longest common subsequence of their lines,
 * three lines of context, hunks merged when their context meets), as {@code diff -u} prints it.
 * No diff library is on the classpath and a reply is small, so this is the plain dynamic program.
 * Pure.
 */
public final class ReplyDiff {
  /** Lines of context around a change, as {@code diff -u} shows by default. */
  static final int CONTEXT = 3;
  /**
   * Above this many cells (lines × lines) the table is not built and the texts are shown as one
   * change: 4 M ints is 16 MB, and replies that long are not read line by line anyway.
   */
  static final long MAX_CELLS = 4_000_000L;

  private ReplyDiff() {}

  /** The diff, or "" when the texts are equal. */
  public static String unified(String expected, String actual, String expectedLabel, String actualLabel) {
    String a = expected == null ? "" : expected;
    String b = actual == null ? "" : actual;
    if (a.equals(b)) {
      return "";
    }
    String[] x = a.split("\n", -1);
    String[] y = b.split("\n", -1);
    List<Op> ops = (long) x.length * y.length > MAX_CELLS ? replaceAll(x, y) : lcs(x, y);
    StringBuilder out = new StringBuilder();
    out.append("--- ").append(expectedLabel).append('\n').append("+++ ").append(actualLabel).append('\n');
    int i = 0;
    while (i < ops.size()) {
      if (ops.get(i).kind == ' ') {
        i++;
        continue;
      }
      int start = Math.max(0, i - CONTEXT);
      int end = i;
      int lastChange = i;
      while (end < ops.size()) {
        if (ops.get(end).kind != ' ') {
          lastChange = end;
        } else if (end - lastChange > 2 * CONTEXT) {
          break;
        }
        end++;
      }
      end = Math.min(ops.size(), lastChange + CONTEXT + 1);
      hunk(ops, start, end, out);
      i = end;
    }
    return out.toString();
  }

  private static void hunk(List<Op> ops, int start, int end, StringBuilder out) {
    int aStart = ops.get(start).aLine;
    int bStart = ops.get(start).bLine;
    int aCount = 0;
    int bCount = 0;
    for (int k = start; k < end; k++) {
      char kind = ops.get(k).kind;
      aCount += kind == '+' ? 0 : 1;
      bCount += kind == '-' ? 0 : 1;
    }
    out.append("@@ -").append(range(aStart, aCount)).append(" +").append(range(bStart, bCount)).append(" @@\n");
    for (int k = start; k < end; k++) {
      out.append(ops.get(k).kind).append(ops.get(k).text).append('\n');
    }
  }

  /** {@code start,count} as diff -u writes it: 1-based, and the line before when nothing is there. */
  private static String range(int zeroBasedStart, int count) {
    int first = count == 0 ? zeroBasedStart : zeroBasedStart + 1;
    return count == 1 ? String.valueOf(first) : first + "," + count;
  }

  /** One line of the edit script: kept (' '), removed ('-') or added ('+'), with its line in each text. */
  private record Op(char kind, String text, int aLine, int bLine) {}

  private static List<Op> lcs(String[] x, String[] y) {
    int n = x.length;
    int m = y.length;
    int[][] len = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        len[i][j] = x[i].equals(y[j]) ? len[i + 1][j + 1] + 1 : Math.max(len[i + 1][j], len[i][j + 1]);
      }
    }
    List<Op> ops = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && x[i].equals(y[j])) {
        ops.add(new Op(' ', x[i], i++, j++));
      } else if (i < n && (j == m || len[i + 1][j] >= len[i][j + 1])) {
        ops.add(new Op('-', x[i], i++, j));
      } else {
        ops.add(new Op('+', y[j], i, j++));
      }
    }
    return ops;
  }

  private static List<Op> replaceAll(String[] x, String[] y) {
    List<Op> ops = new ArrayList<>();
    for (int i = 0; i < x.length; i++) {
      ops.add(new Op('-', x[i], i, 0));
    }
    for (int j = 0; j < y.length; j++) {
      ops.add(new Op('+', y[j], x.length, j));
    }
    return ops;
  }
}

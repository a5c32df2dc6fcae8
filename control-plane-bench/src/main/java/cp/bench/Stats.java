package cp.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Percentiles (nearest rank) and medians over samples in milliseconds. */
final class Stats {
  private Stats() {}

  static double median(List<Double> samples) {
    return percentile(samples, 50);
  }

  /** The nearest-rank percentile: the smallest sample with at least p% of the samples at or below it. */
  static double percentile(List<Double> samples, double p) {
    if (samples.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(samples);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }

  static double millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e6;
  }
}

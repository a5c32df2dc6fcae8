package cp.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs the sides of a comparison in interleaved rounds, rotating which side goes first (A B, B A,
 * ... for two sides), so that a change in machine load during the run falls on every side alike,
 * and reduces each side to the median of its round medians. Percentiles other than the median
 * come from all samples of a side pooled.
 */
final class Interleaved {
  /** One side of a comparison: runs one round and returns its samples (milliseconds, or rates). */
  interface Side {
    List<Double> round(int round) throws Exception;
  }

  /** The samples of every side, by round. */
  record Result(List<List<List<Double>>> sides) {
    double median(int side) {
      return medianOfRoundMedians(sides.get(side));
    }

    double pooled(int side, double p) {
      return Stats.percentile(pool(sides.get(side)), p);
    }

    double medianA() {
      return median(0);
    }

    double medianB() {
      return median(1);
    }

    /** A's median of round medians ÷ B's. */
    double medianRatio() {
      return median(0) / median(1);
    }

    double pooledA(double p) {
      return pooled(0, p);
    }

    double pooledB(double p) {
      return pooled(1, p);
    }
  }

  private Interleaved() {}

  static Result run(int rounds, Side a, Side b) throws Exception {
    return run(rounds, List.of(a, b));
  }

  static Result run(int rounds, List<Side> sides) throws Exception {
    List<List<List<Double>>> out = new ArrayList<>();
    sides.forEach(s -> out.add(new ArrayList<>()));
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < sides.size(); k++) {
        int side = (k + r) % sides.size();
        out.get(side).add(sides.get(side).round(r));
      }
    }
    return new Result(out);
  }

  static double medianOfRoundMedians(List<List<Double>> rounds) {
    List<Double> medians = new ArrayList<>();
    for (List<Double> r : rounds) {
      medians.add(Stats.median(r));
    }
    return Stats.median(medians);
  }

  static List<Double> pool(List<List<Double>> rounds) {
    List<Double> all = new ArrayList<>();
    rounds.forEach(all::addAll);
    return all;
  }
}

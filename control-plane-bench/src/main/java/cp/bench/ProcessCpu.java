package cp.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * CPU time this process spends per operation, per side of a comparison: the process's CPU time
 * over a round divided by the round's operations. Unlike wall-clock latency it is not inflated
 * by other processes competing for the machine.
 */
final class ProcessCpu {
  private final List<List<Double>> perSide = new ArrayList<>();

  ProcessCpu(int sides) {
    for (int i = 0; i < sides; i++) {
      perSide.add(new ArrayList<>());
    }
  }

  /** Runs one round of {@code operations} operations for {@code side} and records its CPU per operation. */
  <T> T measure(int side, int operations, Callable<T> round) throws Exception {
    long start = processCpuNanos();
    T result = round.call();
    perSide.get(side).add((processCpuNanos() - start) / 1e6 / operations);
    return result;
  }

  /** Median over rounds of the CPU milliseconds per operation of {@code side}; NaN when unavailable. */
  double median(int side) {
    return perSide.get(side).isEmpty() ? Double.NaN : Stats.median(perSide.get(side));
  }

  static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return 0;
  }
}

package cp.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;

/** What the numbers were measured on: CPUs, memory, OS, JVM, and the machine's load when it ran. */
public record MachineInfo(String date, int cpus, String cpuModel, long memoryMb, String os, String jvm, long maxHeapMb,
    String loadAverage) {

  static final Path CPUINFO = Path.of("/proc/cpuinfo");
  static final Path MEMINFO = Path.of("/proc/meminfo");
  static final Path LOADAVG = Path.of("/proc/loadavg");

  static MachineInfo now() {
    return new MachineInfo(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
        Runtime.getRuntime().availableProcessors(), readCpuModel().orElse(System.getProperty("os.arch")),
        readMemoryMb().orElse(-1L),
        System.getProperty("os.name") + " " + System.getProperty("os.version") + " (" + System.getProperty("os.arch")
            + ")",
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        Runtime.getRuntime().maxMemory() / (1024 * 1024), currentLoadAverage());
  }

  /** The 1, 5 and 15 minute load averages, e.g. "0.52 1.10 2.30". */
  static String currentLoadAverage() {
    try {
      String[] f = Files.readString(LOADAVG).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      double l = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      return l < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f", l);
    }
  }

  private static Optional<String> readCpuModel() {
    try {
      return Files.readAllLines(CPUINFO).stream().filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<Long> readMemoryMb() {
    try {
      return Files.readAllLines(MEMINFO).stream().filter(l -> l.startsWith("MemTotal:"))
          .map(l -> Long.parseLong(l.replaceAll("\\D", "")) / 1024).findFirst();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}

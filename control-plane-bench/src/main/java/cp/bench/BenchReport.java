package cp.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The results as a Markdown table with the machine description, for the terminal and the results file. */
public record BenchReport(MachineInfo machine, String loadAfter, BenchOptions options, Map<String, String> settings,
    List<Measure> measures, double seconds) {

  public String markdown() {
    StringBuilder sb = new StringBuilder();
    sb.append("# Control Plane benchmark (`cpctl bench`)\n\n");
    sb.append("- date: ").append(machine.date()).append(", run took ").append(Math.round(seconds)).append(" s\n");
    sb.append("- machine: ").append(machine.cpus()).append(" CPUs (").append(machine.cpuModel()).append("), ")
        .append(machine.memoryMb()).append(" MB RAM, ").append(machine.os()).append('\n');
    sb.append("- JVM: ").append(machine.jvm()).append(", max heap ").append(machine.maxHeapMb()).append(" MB\n");
    sb.append("- load average (1/5/15 min): ").append(machine.loadAverage()).append(" at start, ").append(loadAfter)
        .append(" at end\n");
    settings.forEach((k, v) -> sb.append("- ").append(k).append(": ").append(v).append('\n'));
    sb.append('\n');
    sb.append("| # | measure | result | target | status |\n");
    sb.append("|---|---|---|---|---|\n");
    for (Measure m : measures) {
      sb.append("| ").append(m.id()).append(" | ").append(m.what()).append(" | ").append(m.value()).append(" | ")
          .append(m.target()).append(" | ").append(m.status()).append(" |\n");
    }
    sb.append("\nHow each value was obtained:\n\n");
    for (Measure m : measures) {
      sb.append("- ").append(m.id()).append(", ").append(m.what()).append(": ").append(m.detail()).append('\n');
    }
    return sb.toString();
  }

  void write(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, markdown(), StandardCharsets.UTF_8);
  }
}

package cp.cli;

import picocli.CommandLine.Command;

/** Prints the effective configuration, secrets masked. */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Print the effective configuration (secrets masked).")
final class ConfigCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Override
  public Integer call() {
    var cfg = config();
    java.util.List<String[]> rows = new java.util.ArrayList<>(cfg.describe());
    rows.addAll(cp.observability.Telemetry.describe(env()));
    rows.addAll(cp.worker.OpsSettings.fromEnv(env()).describe());
    var masker = cfg.secretMasker();
    rows.add(new String[] {"secret masking", masker.registered() + " configured secret(s) by value, fragments and"
        + " encodings, plus common key patterns (ledgers, spans, logs, show/query)"});
    for (String[] row : rows) {
      out().printf("%-30s %s%n", row[0], row[1]);
    }
    return Cpctl.OK;
  }
}

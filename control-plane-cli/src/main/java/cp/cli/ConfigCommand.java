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
    cp.worker.ConfigChecks.Result checks = cp.worker.ConfigChecks.of(cfg, env());
    rows.addAll(checks.rows());
    var masker = cfg.secretMasker();
    rows.add(new String[] {"secret masking", masker.registered() + " configured secret(s) by value, fragments and"
        + " encodings, plus common key patterns (ledgers, spans, logs, show/query)"});
    for (String[] row : rows) {
      out().printf("%-30s %s%n", row[0], row[1]);
    }
    // What a worker would stop at: said here, with exit 2, instead of at the next start.
    for (String p : checks.problems()) {
      err().println("cpctl: " + masker.mask(p));
    }
    return checks.problems().isEmpty() ? Cpctl.OK : Cpctl.BAD_INPUT;
  }
}

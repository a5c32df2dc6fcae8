package cp.cli;

import picocli.CommandLine.Command;

/** Prints the effective configuration, secrets masked. */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Print the effective configuration (secrets masked).")
final class ConfigCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Override
  public Integer call() {
    for (String[] row : config().describe()) {
      out().printf("%-30s %s%n", row[0], row[1]);
    }
    return Cpctl.OK;
  }
}

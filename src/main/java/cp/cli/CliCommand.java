package cp.cli;

import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import cp.worker.PlaneConfig;
import java.io.PrintStream;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Base of every cpctl command: access to the root's environment and streams. */
abstract class CliCommand {
  @Spec
  CommandSpec spec;

  Cpctl root() {
    return (Cpctl) spec.root().userObject();
  }

  Map<String, String> env() {
    return root().env;
  }

  PrintStream out() {
    return root().out;
  }

  PrintStream err() {
    return root().err;
  }

  PlaneConfig config() {
    return PlaneConfig.fromEnv(env());
  }

  /** The ledgers under {@code cfg}'s CP_HOME, with its ledger settings. */
  static Ledgers openLedgers(PlaneConfig cfg) {
    return new Ledgers(new PlaneLayout(cfg.home()), cfg.ledgers());
  }
}

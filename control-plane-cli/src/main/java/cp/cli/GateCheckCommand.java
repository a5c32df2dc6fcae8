package cp.cli;

import cp.ledger.Ledgers;
import cp.tools.CatalogStatus;
import cp.tools.GateResult;
import cp.tools.IntegrityGates;
import cp.worker.PlaneConfig;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The integrity gates: contracts and configs valid, artifacts unchanged, ledger chains intact. */
@Command(name = "gate-check", mixinStandardHelpOptions = true,
    description = "Run the integrity gates; one PASS/FAIL line each, exit 1 on any FAIL.")
final class GateCheckCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--gate", description = "Run only this gate (e.g. G-CATALOG, G-LEDGER-HOT).")
  String gate;

  @Override
  public Integer call() {
    var cfg = config();
    CatalogStatus status = CatalogStatus.load(cfg.catalogSource(), PlaneConfig.CATALOG_REQUIREMENTS);
    try (Ledgers ledgers = readLedgers(cfg)) {
      IntegrityGates gates = new IntegrityGates(status, ledgers);
      List<GateResult> results;
      if (gate == null) {
        results = gates.runAll();
      } else {
        try {
          results = List.of(gates.run(gate));
        } catch (RuntimeException e) {
          throw new IllegalArgumentException(Cpctl.oneLine(e));
        }
      }
      for (GateResult r : results) {
        out().println(r.line());
      }
      long failed = results.stream().filter(r -> !r.passed()).count();
      out().println(failed == 0 ? "all " + results.size() + " gates pass" : failed + " of " + results.size()
          + " gates FAIL");
      return failed == 0 ? Cpctl.OK : Cpctl.FAILED;
    }
  }
}

package cp.cli;

import java.io.PrintStream;

/**
 * A command that prints what the ledgers hold: its stdout passes the secret masker (issue 20 §1),
 * since entries may predate masking or hold what a user's tool returned.
 */
abstract class MaskedCliCommand extends CliCommand {
  private final MaskedOutput.Lazy masked = new MaskedOutput.Lazy();

  @Override
  PrintStream out() {
    return masked.of(super.out(), () -> config().secretMasker());
  }
}

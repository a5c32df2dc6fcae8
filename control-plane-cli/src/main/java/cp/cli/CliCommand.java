package cp.cli;

import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import cp.worker.PlaneConfig;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
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

  private PrintStream terminalOut;

  /** Standard output; on a terminal, with what would act on the terminal escaped ({@link TerminalOutput}). */
  PrintStream out() {
    if (!stdoutIsTerminal()) {
      return root().out;
    }
    if (terminalOut == null) {
      terminalOut = TerminalOutput.over(root().out);
    }
    return terminalOut;
  }

  private Boolean terminal;

  /** Whether this process's standard output is a terminal (never for in-process runs with their own streams). */
  boolean stdoutIsTerminal() {
    if (terminal == null) {
      terminal = root().out == System.out && StdoutTerminal.isTerminal();
    }
    return terminal;
  }

  PrintStream err() {
    return root().err;
  }

  PlaneConfig config() {
    return PlaneConfig.fromEnv(env());
  }

  /**
   * Runs {@code call} on a client of the shared Temporal service {@code TEMPORAL_ADDRESS} names,
   * and closes it; refused (as {@code cpctl <command>} needing one) when there is none.
   */
  <T> T withSharedService(String command, java.util.function.Function<CliPlane, T> call) {
    PlaneConfig cfg = config();
    CliPlane.requireSharedService(cfg, command);
    try (CliPlane plane = CliPlane.open(cfg, env())) {
      return call.apply(plane);
    }
  }

  /** Refuses a session id that is not one ({@code what}: the option or parameter it came from), saying the form. */
  static void checkSessionId(String what, String id) {
    if (id == null || !cp.model.WorkOrderIds.SESSION_ID.matcher(id).matches()) {
      throw new IllegalArgumentException(what + " '" + id + "' is not a session id (expected SES- and 8 hex digits,"
          + " e.g. SES-1a2b3c4d; 'cpctl sessions' lists them)");
    }
  }

  /** Refuses a --port outside 1-65535. */
  static void checkPort(int port) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("--port " + port + " is not a TCP port (1-65535)");
    }
  }

  /** A server could not listen on {@code where} (e.g. "port 7233") because of {@code why}. */
  static IllegalArgumentException cannotServe(String where, String why) {
    return new IllegalArgumentException("cannot serve on " + where + ": " + why
        + " (is another server using it? pick another with --port)");
  }

  /**
   * Registers a shutdown hook (thread {@code threadName}) that runs {@code close}, and returns the
   * latch it then releases: a long-running command announces itself and awaits it.
   */
  static CountDownLatch closeOnShutdown(String threadName, Runnable close) {
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      close.run();
      stop.countDown();
    }, threadName));
    return stop;
  }

  /**
   * The ledgers under {@code cfg}'s CP_HOME for a command that only reads: nothing is created, recovered
   * or rewritten ({@link Ledgers#readOnly}); a ledger ending in an incomplete line is read up to its last
   * complete line, with one warning on stderr naming it.
   */
  Ledgers readLedgers(PlaneConfig cfg) {
    return Ledgers.readOnly(new PlaneLayout(cfg.home()), cfg.ledgers(), w -> err().println("cpctl: warning: " + w));
  }

  /** The ledgers under {@code cfg}'s CP_HOME, with its ledger settings, for a command that writes. */
  static Ledgers openLedgers(PlaneConfig cfg) {
    return new Ledgers(new PlaneLayout(cfg.home()), cfg.ledgers());
  }
}

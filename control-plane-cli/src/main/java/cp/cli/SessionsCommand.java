package cp.cli;

import cp.ledger.Ledgers;
import cp.worker.TemporalConnection;
import cp.client.ControlPlaneClient;
import cp.client.SessionListing;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Lists sessions: from Temporal's visibility store on a real server, else (embedded service,
 * dev-server, or no service) from the HOT ledger's SESSION_START / SESSION_END records.
 */
@Command(name = "sessions", mixinStandardHelpOptions = true, description = "List sessions.")
final class SessionsCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  /** Most sessions listed from the visibility store. */
  static final int MAX_LISTED = 200;

  @Option(names = "--ledger", description = "Read the HOT ledger even when a visibility store is available.")
  boolean ledgerOnly;

  @Override
  public Integer call() {
    var cfg = config();
    if (!cfg.embedded() && !ledgerOnly) {
      try (TemporalConnection conn = TemporalConnection.open(cfg)) {
        if (!conn.isTestServer()) {
          // The library's list (visibility store); the in-process test service has none.
          List<SessionListing> runs = ControlPlaneClient.newBuilder(conn.client())
              .taskQueue(cfg.worker().taskQueue()).build().list(null, MAX_LISTED);
          out().printf("%-14s %-10s %-10s %-6s %s%n", "SESSION", "AGENT", "STATUS", "TURN", "STARTED");
          for (SessionListing m : runs) {
            out().printf("%-14s %-10s %-10s %-6s %s%n", m.sessionId(), m.agentClass(), m.status(), m.turns(),
                m.startedAt());
          }
          return Cpctl.OK;
        }
      }
    }
    try (Ledgers ledgers = readLedgers(cfg)) {
      List<SessionHistory.Listing> list = SessionHistory.list(ledgers);
      if (list.isEmpty()) {
        out().println("no sessions recorded under " + cfg.home());
        return Cpctl.OK;
      }
      out().printf("%-14s %-10s %-28s %-28s %s%n", "SESSION", "AGENT", "STARTED", "ENDED", "REASON");
      for (SessionHistory.Listing l : list) {
        out().printf("%-14s %-10s %-28s %-28s %s%n", l.sessionId(), l.agentClass(), l.startedAt(),
            l.endedAt() == null ? "(open or interrupted)" : l.endedAt(), l.endReason() == null ? "" : l.endReason());
      }
    }
    return Cpctl.OK;
  }
}

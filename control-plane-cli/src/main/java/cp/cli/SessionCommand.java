package cp.cli;

import cp.model.SessionSummary;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Start and end sessions on a shared Temporal service (scriptable counterparts of chat). */
@Command(name = "session", mixinStandardHelpOptions = true, description = "Start or end a session.",
    subcommands = {SessionCommand.Start.class, SessionCommand.End.class})
final class SessionCommand extends CliCommand implements Runnable {
  @Override
  public void run() {
    spec.commandLine().usage(out());
  }

  @Command(name = "start", mixinStandardHelpOptions = true, description = "Start a session; prints its id.")
  static final class Start extends CliCommand implements java.util.concurrent.Callable<Integer> {
    @Option(names = "--agent", defaultValue = "ADMIN", description = "Agent class. Default: ${DEFAULT-VALUE}.")
    String agent;

    @Option(names = "--tenant", description = "Whose session it is, for spend (CP_TENANTS_FILE caps). Default: default.")
    String tenant;

    @Override
    public Integer call() {
      var cfg = config();
      String t = TenantOption.check(tenant, env());
      CliPlane.requireSharedService(cfg, "session start");
      try (CliPlane plane = CliPlane.open(cfg, env())) {
        plane.requireKnownAgentClass(agent, cfg.worker().taskQueue());
        out().println(plane.client.startSession(agent, t));
      }
      return Cpctl.OK;
    }
  }

  @Command(name = "end", mixinStandardHelpOptions = true, description = "End a session (writes SESSION_END).")
  static final class End extends CliCommand implements java.util.concurrent.Callable<Integer> {
    @Parameters(paramLabel = "SESSION_ID")
    String sessionId;

    @Override
    public Integer call() {
      var cfg = config();
      CliPlane.requireSharedService(cfg, "session end");
      try (CliPlane plane = CliPlane.open(cfg, env())) {
        SessionSummary s = plane.client.end(sessionId);
        out().println(String.format(Locale.ROOT, "%s ended: %d turn(s), %d of %d tokens, $%.4f", s.sessionId(),
            s.turns(), s.tokensUsed(), s.tokenLimit(), s.cost()));
        if (s.endNotRecorded() != null) {
          err().println("cpctl: " + s.endNotRecorded());
        }
      }
      return Cpctl.OK;
    }
  }
}

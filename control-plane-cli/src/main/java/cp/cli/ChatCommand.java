package cp.cli;

import cp.client.ClientException;
import cp.client.SessionEndedException;
import cp.client.TurnListener;
import cp.model.ApprovalResult;
import cp.model.PendingApproval;
import cp.model.SessionSummary;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneConfig;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * An interactive session. With no TEMPORAL_ADDRESS everything runs in this process (embedded
 * Temporal service, worker, client) and needs no API key: the offline provider answers.
 * Standard input may be piped (one turn per line); progress goes to stderr only when it is a
 * terminal, so piped output stays clean. A reply's live text is printed only when stdout is a
 * terminal (or {@code --stream} asks): elsewhere each reply is printed once, when its turn is done,
 * so text the turn withdraws never reaches what a script reads.
 *
 * <p>A turn is one round trip to the session: the Update, nothing before it (issue 21: the
 * chat counts its session's turns from the results instead of asking the session each time).
 */
@Command(name = "chat", mixinStandardHelpOptions = true,
    description = "Chat with an agent (admin> prompt); 'exit', 'quit' or end of input ends the session.")
final class ChatCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--agent", defaultValue = "ADMIN", description = "Agent class (ADMIN, RESIDENT, or one defined in CP_AGENTS_DIR). Default: ${DEFAULT-VALUE}.")
  String agent;

  @Option(names = "--no-stream", description = "Print each reply only when it is complete, not as it is written"
      + " (what chat does when stdout is not a terminal).")
  boolean noStream;

  @Option(names = "--stream", description = "Print each reply as it is written even when stdout is not a terminal"
      + " (text the turn withdraws then stays in stdout; stderr says so).")
  boolean stream;

  @Option(names = "--session", description = "Continue an existing session (needs TEMPORAL_ADDRESS).")
  String session;

  @Option(names = "--tenant", description = "Whose session it is, for spend (CP_TENANTS_FILE caps). Default: default.")
  String tenant;

  /** How often chat looks for approvals the client reported while the turn runs. */
  static final long APPROVAL_CHECK_MS = 100;

  /** The turn being run (0 at the prompt), for what Ctrl-C says. */
  private volatile int runningTurn;
  /** The session's completed turns as this chat knows them: from its start, then from each result. */
  private int knownTurns;
  /** Set when the person typed exit at an approval question: chat ends after the running turn. */
  private boolean leaveAfterTurn;
  /** Whether replies are printed as they are written: in a terminal, or when --stream asks. */
  private boolean liveReplies;
  /** Input lines sent or meant as turns, and those of them that got no answer: refused, skipped, or ended in error. */
  private int messages;
  private int unanswered;

  @Override
  public Integer call() throws Exception {
    var cfg = config();
    if (session != null) {
      CliPlane.requireSharedService(cfg, "chat --session");
    }
    if (stream && noStream) {
      throw new IllegalArgumentException("--stream and --no-stream contradict each other: give one of them");
    }
    tenant = TenantOption.check(tenant, env());
    boolean interactive = System.console() != null && root().in == System.in;
    PrintStream out = out();
    // Piped, a reply's live text is not printed: text the turn withdraws would stay in what a script reads.
    liveReplies = stream || (!noStream && stdoutIsTerminal());
    int status = Cpctl.OK;
    try (CliPlane plane = CliPlane.open(cfg, env())) {
      String sid;
      String agentClass;
      if (session != null) {
        var state = plane.client.state(session);
        sid = session;
        agentClass = state.agentClass();
        knownTurns = state.turns();
      } else {
        plane.requireKnownAgentClass(agent, cfg.worker().taskQueue());
        sid = plane.client.startSession(agent, tenant);
        agentClass = agent.toUpperCase(Locale.ROOT);
      }
      String prompt = agentClass.toLowerCase(Locale.ROOT) + "> ";
      AtomicBoolean ended = new AtomicBoolean();
      // The session this chat talks to: a new one when the user accepts one after the last ended.
      AtomicReference<String> current = new AtomicReference<>(sid);
      // The hook says which signal stopped chat: only SIGINT is a Ctrl-C.
      ChatSignals signals = ChatSignals.install();
      Thread hook = new Thread(() -> new ChatInterrupt(plane, cfg.temporalAddress(), current::get, ended,
          () -> runningTurn, err(), signals.cause()).run(), "cpctl-chat-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        if (interactive) {
          out.println(banner(cfg, agentClass, sid));
        }
        status = converse(plane, current, agentClass, prompt, interactive, out);
        if (status == Cpctl.OK && !interactive && unanswered > 0) {
          // Piped, a script has only the exit status to tell that some of its messages got no answer.
          err().println("cpctl: " + unanswered + " of " + messages + " message(s) got no answer (refused, skipped or"
              + " ended in error; see above): exit " + Cpctl.FAILED);
          status = Cpctl.FAILED;
        }
        if (ended.compareAndSet(false, true)) {
          SessionSummary s;
          try {
            s = plane.client.end(current.get());
          } catch (SessionEndedException e) {
            s = e.summary();
          }
          out.println(EndedSessions.closing(s));
          if (s.endNotRecorded() != null) {
            err().println("cpctl: " + s.endNotRecorded());
          }
        }
      } catch (Throwable e) {
        // Issue 20: an error is not a Ctrl-C. The hook goes first, then the session is ended as well
        // as it can be, saying so truthfully; the error itself is printed by cpctl as usual.
        removeHook(hook);
        new ChatInterrupt(plane, cfg.temporalAddress(), current::get, ended, () -> runningTurn, err(),
            ChatInterrupt.Cause.ERROR).run();
        throw e;
      } finally {
        removeHook(hook);
        signals.close();
      }
    }
    return status;
  }

  /** The turns, one per input line, until exit, quit or the end of input; the exit status. */
  private int converse(CliPlane plane, AtomicReference<String> current, String agentClass, String prompt,
      boolean interactive, PrintStream out) throws Exception {
    LineInput input = new LineInput(root().in);
    int lineNo = 0;
    while (!leaveAfterTurn) {
      if (interactive) {
        out.print(prompt);
        out.flush();
      }
      LineInput.Line line = input.next();
      if (line == null) {
        return Cpctl.OK;
      }
      lineNo++;
      if (line.problem() != null) {
        err().println("cpctl: input line " + lineNo + " skipped: " + line.problem());
        messages++;
        unanswered++;
        continue;
      }
      String text = line.text();
      String cmd = text.trim().toLowerCase(Locale.ROOT);
      if (cmd.equals("exit") || cmd.equals("quit")) {
        return Cpctl.OK;
      }
      if (text.isBlank()) {
        continue;
      }
      try {
        runTurn(plane, current.get(), text, out, interactive, input);
      } catch (SessionEndedException e) {
        runningTurn = 0;
        if (!interactive) {
          err().println(EndedSessions.notSent(e));
          return Cpctl.FAILED;
        }
        if (!EndedSessions.offerNewSession(e, input, out)) {
          return Cpctl.OK;
        }
        current.set(plane.client.startSession(agentClass, tenant));
        knownTurns = 0;
        out.println("Session " + current.get() + " started; sending your message there.");
        runTurn(plane, current.get(), text, out, interactive, input);
      }
    }
    return Cpctl.OK;
  }

  /**
   * The banner of an interactive chat. The provider is named only where this chat knows it: the
   * embedded plane's is this process's configuration; against a shared service the workers answer
   * with their own (issue 20: this chat's environment is not theirs).
   */
  static String banner(PlaneConfig cfg, String agentClass, String sid) {
    String provider = cfg.embedded() ? "provider " + cfg.provider().type().id()
        : "provider: the workers' own (set where they run; this chat does not see it)";
    return "Control Plane chat: agent " + agentClass + ", session " + sid + ", " + provider + ", Temporal "
        + (cfg.embedded() ? "embedded in-process" : cfg.temporalAddress()) + ". Type 'exit' or 'quit' to end.";
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // Already shutting down: the hook runs, as it should for a signal.
    }
  }

  private void runTurn(CliPlane plane, String sid, String text, PrintStream out, boolean interactive,
      LineInput input) throws InterruptedException {
    // Left set when the turn fails: what chat says as it stops names the turn.
    runningTurn = knownTurns + 1;
    TurnResult r = awaitTurn(plane, sid, text, out, interactive, input);
    messages++;
    if (r != null) {
      knownTurns = r.turn();
    }
    if (r == null || TurnOutcome.ERROR.equals(r.outcome())) {
      unanswered++; // what 'cpctl turn' exits non-zero for: refused (2) or ended in error (1)
    }
    runningTurn = 0;
  }

  /** Runs the turn and prints its result; returns it, or null when the session refused it. */
  private TurnResult awaitTurn(CliPlane plane, String sid, String text, PrintStream out, boolean interactive,
      LineInput input) throws InterruptedException {
    TurnSteps progress = new TurnSteps(err(), interactive);
    LiveReply live = new LiveReply(out, err(), progress::clear);
    // The client reads the turn's progress (the per-turn Query) and its pending approvals on the
    // turn's thread; this thread stays interruptible and asks the person about each approval.
    BlockingQueue<PendingApproval> approvals = new LinkedBlockingQueue<>();
    TurnListener listener = new TurnListener() {
      @Override
      public void onProgress(String step) {
        if (!live.started()) {
          progress.show(step);
        }
      }

      @Override
      public void onEvent(cp.model.TurnEvent e) {
        live.onEvent(e);
      }

      @Override
      public boolean wantsEvents() {
        return liveReplies;
      }

      @Override
      public boolean wantsEventsAfterResult() {
        return LiveReply.LISTENS_AFTER_RESULT;
      }

      @Override
      public void onApproval(PendingApproval pending) {
        approvals.add(pending);
      }

      @Override
      public boolean wantsProgress() {
        return interactive;
      }
    };
    CompletableFuture<TurnResult> result = CompletableFuture.supplyAsync(() -> plane.client.turn(sid, text, listener));
    while (true) {
      try {
        TurnResult r = result.get(APPROVAL_CHECK_MS, TimeUnit.MILLISECONDS);
        progress.clear();
        live.finish(r);
        return r;
      } catch (TimeoutException e) {
        for (PendingApproval p; (p = approvals.poll()) != null; ) {
          progress.clear();
          askForApproval(plane, sid, out, interactive, input, p);
        }
      } catch (ExecutionException e) {
        progress.clear();
        Throwable cause = e.getCause();
        if (cause instanceof SessionEndedException ended) {
          throw ended;
        }
        if (cause instanceof ClientException ce && ce.kind() != ClientException.Kind.UNAVAILABLE) {
          err().println("cpctl: " + Cpctl.clientLine(ce));
          return null;
        }
        throw new ClientException(ClientException.Kind.UNAVAILABLE, Cpctl.oneLine(cause), cause,
            cause instanceof ClientException ce ? ce.sessionId() : sid, null);
      }
    }
  }

  /**
   * Issue 15: asks in place about a tool call of the turn that waits for a person. Piped input
   * is never read for a decision (its lines are the next messages): the approval stays pending
   * and chat says how to decide it from another terminal, then keeps waiting.
   */
  private void askForApproval(CliPlane plane, String sid, PrintStream out, boolean interactive, LineInput input,
      PendingApproval p) {
    if (!interactive) {
      err().println(plane.worker != null ? ApprovalText.undecidableLine(p) : ApprovalText.waitingLine(p));
      return;
    }
    ApprovalPrompt.Answer a = ApprovalPrompt.ask(p, input, out, ApprovalPrompt.approver(null));
    if (a.leave()) {
      leaveAfterTurn = true;
      err().println("cpctl: no decision on " + p.approvalId() + ": it stays pending (decide with '"
          + ApprovalText.decideCommand(p) + "' until " + p.deadline() + ", then " + p.onTimeout()
          + "); chat ends when this turn does");
      return;
    }
    if (a.decided().isEmpty()) {
      err().println(ApprovalText.waitingLine(p));
      return;
    }
    try {
      ApprovalResult r = plane.client.approve(sid, a.decision(), null);
      out.println(r.message());
    } catch (ClientException e) {
      err().println("cpctl: " + Cpctl.clientLine(e));
    }
  }

  /** Shows the turn's steps on stderr when it is a terminal; prints nothing otherwise. */
  static final class TurnSteps {
    private final PrintStream err;
    private final boolean enabled;
    private String last = "";

    TurnSteps(PrintStream err, boolean enabled) {
      this.err = err;
      this.enabled = enabled;
    }

    void show(String step) {
      if (!enabled || step == null || step.equals(last)) {
        return;
      }
      last = step;
      err.print("\r\033[2K  … " + step);
      err.flush();
    }

    void clear() {
      if (enabled && !last.isEmpty()) {
        err.print("\r\033[2K");
        err.flush();
      }
    }
  }
}

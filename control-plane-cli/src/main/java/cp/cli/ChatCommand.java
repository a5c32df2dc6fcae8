package cp.cli;

import cp.client.ClientException;
import cp.client.SessionEndedException;
import cp.client.TurnListener;
import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.PendingApproval;
import cp.model.SessionSummary;
import cp.model.TurnResult;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Optional;
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
 * terminal, so piped output stays clean.
 */
@Command(name = "chat", mixinStandardHelpOptions = true,
    description = "Chat with an agent (admin> prompt); 'exit', 'quit' or end of input ends the session.")
final class ChatCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--agent", defaultValue = "ADMIN", description = "Agent class (ADMIN, RESIDENT, or one defined in CP_AGENTS_DIR). Default: ${DEFAULT-VALUE}.")
  String agent;

  @Option(names = "--session", description = "Continue an existing session (needs TEMPORAL_ADDRESS).")
  String session;

  /** The turn being run (0 at the prompt), for what Ctrl-C says. */
  private volatile int runningTurn;

  @Override
  public Integer call() throws Exception {
    var cfg = config();
    if (session != null) {
      CliPlane.requireSharedService(cfg, "chat --session");
    }
    boolean interactive = System.console() != null && root().in == System.in;
    PrintStream out = out();
    int status = Cpctl.OK;
    try (CliPlane plane = CliPlane.open(cfg, env())) {
      if (session == null) {
        plane.requireKnownAgentClass(agent, cfg.worker().taskQueue());
      }
      String sid = session != null ? session : plane.client.startSession(agent);
      String agentClass = session != null ? plane.client.state(sid).agentClass() : agent.toUpperCase(Locale.ROOT);
      String prompt = agentClass.toLowerCase(Locale.ROOT) + "> ";
      AtomicBoolean ended = new AtomicBoolean();
      // The session this chat talks to: a new one when the user accepts one after the last ended.
      AtomicReference<String> current = new AtomicReference<>(sid);
      Thread hook = new Thread(new ChatInterrupt(plane, cfg.temporalAddress(), current::get, ended, () -> runningTurn,
          err()), "cpctl-chat-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      if (interactive) {
        out.println("Control Plane chat: agent " + agentClass + ", session " + sid + ", provider "
            + cfg.provider().type().id() + ", Temporal " + (cfg.embedded() ? "embedded in-process" : cfg.temporalAddress())
            + ". Type 'exit' or 'quit' to end.");
      }
      LineInput input = new LineInput(root().in);
      int lineNo = 0;
      while (true) {
        if (interactive) {
          out.print(prompt);
          out.flush();
        }
        LineInput.Line line = input.next();
        if (line == null) {
          break;
        }
        lineNo++;
        if (line.problem() != null) {
          err().println("cpctl: input line " + lineNo + " skipped: " + line.problem());
          continue;
        }
        String text = line.text();
        String cmd = text.trim().toLowerCase(Locale.ROOT);
        if (cmd.equals("exit") || cmd.equals("quit")) {
          break;
        }
        if (text.isBlank()) {
          continue;
        }
        try {
          runTurn(plane, current.get(), text, out, interactive, input);
        } catch (SessionEndedException e) {
          if (!interactive) {
            err().println(EndedSessions.notSent(e));
            status = Cpctl.FAILED;
            break;
          }
          if (!EndedSessions.offerNewSession(e, input, out)) {
            break;
          }
          current.set(plane.client.startSession(agentClass));
          out.println("Session " + current.get() + " started; sending your message there.");
          runTurn(plane, current.get(), text, out, interactive, input);
        }
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
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // Already shutting down.
      }
    }
    return status;
  }

  private void runTurn(CliPlane plane, String sid, String text, PrintStream out, boolean interactive,
      LineInput input) throws InterruptedException {
    int turn = plane.client.state(sid).turns() + 1;
    runningTurn = turn;
    try {
      awaitTurn(plane, sid, text, turn, out, interactive, input);
    } finally {
      runningTurn = 0;
    }
  }

  private void awaitTurn(CliPlane plane, String sid, String text, int turn, PrintStream out, boolean interactive,
      LineInput input) throws InterruptedException {
    Progress progress = new Progress(err(), interactive);
    // The client reads the turn's progress (the per-turn Query) and its pending approvals on the
    // turn's thread; this thread stays interruptible and asks the person about each approval.
    BlockingQueue<PendingApproval> approvals = new LinkedBlockingQueue<>();
    TurnListener listener = new TurnListener() {
      @Override
      public void onProgress(String step) {
        progress.show(step);
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
        TurnPrinter.print(out, r);
        return;
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
          return;
        }
        throw new ClientException(ClientException.Kind.UNAVAILABLE, Cpctl.oneLine(cause), cause,
            cause instanceof ClientException ce ? ce.sessionId() : sid, null);
      }
    }
  }

  /** How often chat looks for approvals the client reported while the turn runs. */
  static final long APPROVAL_CHECK_MS = 100;

  /**
   * Issue 15: asks in place about a tool call of the turn that waits for a person. Piped input
   * is never read for a decision (its lines are the next messages): the approval stays pending
   * and chat says how to decide it from another terminal, then keeps waiting.
   */
  private void askForApproval(CliPlane plane, String sid, PrintStream out, boolean interactive, LineInput input,
      PendingApproval p) {
    if (!interactive) {
      err().println(TurnCommand.waitingLine(p));
      return;
    }
    Optional<ApprovalDecision> d = ApprovalPrompt.ask(p, input, out,
        ApprovalPrompt.approver(null));
    if (d.isEmpty()) {
      err().println(TurnCommand.waitingLine(p));
      return;
    }
    try {
      ApprovalResult r = plane.client.approve(sid, d.get(), null);
      out.println(r.message());
    } catch (ClientException e) {
      err().println("cpctl: " + Cpctl.clientLine(e));
    }
  }

  /** Shows the turn's steps on stderr when it is a terminal; prints nothing otherwise. */
  static final class Progress {
    private final PrintStream err;
    private final boolean enabled;
    private String last = "";

    Progress(PrintStream err, boolean enabled) {
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

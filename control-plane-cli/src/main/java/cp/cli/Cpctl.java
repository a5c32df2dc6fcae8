package cp.cli;

import cp.client.ClientException;
import cp.contracts.CatalogException;
import cp.model.RootCause;
import cp.worker.ConfigException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cpctl}: the Control Plane command line.
 *
 * <p>Exit codes: 0 success, 1 a failed check (gate, verify, replay, a turn the service could
 * not run), 2 bad usage or bad input. Errors are one line (what, which input, what to do);
 * {@code --verbose} adds the stack trace.
 */
@Command(name = "cpctl", mixinStandardHelpOptions = true, versionProvider = Cpctl.Version.class,
    description = "Control Plane: a governed, durable runtime for LLM agents on Temporal.",
    subcommands = {ChatCommand.class, DevServerCommand.class, WorkerCommand.class, SessionCommand.class,
        TurnCommand.class, ApprovalsCommand.class, ApproveCommand.class, SessionsCommand.class, ShowCommand.class,
        LedgerCommand.class, GateCheckCommand.class, SpendCommand.class, EvalCommand.class,
        ReplayCommand.class, ConfigCommand.class, CodecServerCommand.class, BenchHintCommand.class, AgentsCommand.class,
        CommandLine.HelpCommand.class})
public final class Cpctl implements Runnable {
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int BAD_INPUT = 2;

  @Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT, description = "Print stack traces on errors.")
  boolean verbose;

  final Map<String, String> env;
  final InputStream in;
  final PrintStream out;
  final PrintStream err;

  Cpctl(Map<String, String> env, InputStream in, PrintStream out, PrintStream err) {
    this.env = Map.copyOf(env);
    this.in = in;
    this.out = out;
    this.err = err;
  }

  @Override
  public void run() {
    new CommandLine(this).usage(out);
  }

  public static void main(String[] args) {
    OutputCharset.applyToSystemStreams();
    int code = run(args, System.getenv(), System.in, System.out, System.err);
    System.out.flush();
    System.exit(code);
  }

  /** Runs cpctl with explicit environment and streams (tests call this in-process). */
  public static int run(String[] args, Map<String, String> env, InputStream in, PrintStream out, PrintStream err) {
    Optional<String> badLevel = LogLevel.problem(env);
    if (badLevel.isPresent()) {
      err.println("cpctl: " + badLevel.get());
      return BAD_INPUT;
    }
    // Log lines mask this process's secrets from here on (issue 20 §1; a worker hands over its own masker).
    cp.observability.SecretMasker masker = cp.observability.SecretMasker.fromEnv(env);
    MaskingEncoder.useEverywhere(masker);
    Cpctl root = new Cpctl(env, in, out, err);
    CommandLine cl = new CommandLine(root);
    cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    cl.setParameterExceptionHandler((ex, a) -> {
      err.println("cpctl: " + usageProblem(ex) + " (see '" + ex.getCommandLine().getCommandSpec().qualifiedName()
          + " --help')");
      return BAD_INPUT;
    });
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      // An error's text can hold what a user's code put there (a tool provider's exception naming its key).
      err.println("cpctl: " + masker.mask(ex instanceof ClientException ce ? clientLine(ce) : oneLine(ex)));
      if (root.verbose) {
        ex.printStackTrace(MaskedOutput.over(err, masker));
      }
      return exitCode(ex);
    });
    return cl.execute(args);
  }

  /** What is wrong with the command line, in one line; an unknown command lists the known ones. */
  static String usageProblem(CommandLine.ParameterException ex) {
    CommandLine cmd = ex.getCommandLine();
    if (ex instanceof CommandLine.UnmatchedArgumentException u && !cmd.getSubcommands().isEmpty()
        && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
      return "unknown command '" + u.getUnmatched().get(0) + "' (commands: "
          + String.join(", ", cmd.getSubcommands().keySet()) + ")";
    }
    return oneLine(ex);
  }

  static int exitCode(Throwable ex) {
    if (ex instanceof ConfigException || ex instanceof CatalogException || ex instanceof IllegalArgumentException
        || ex instanceof cp.agents.AgentDefinitionException || ex instanceof cp.tools.registry.ToolRegistryException
        || ex instanceof UsageException || ex instanceof cp.ledger.LedgerStoreUnavailableException) {
      return BAD_INPUT;
    }
    if (ex instanceof ClientException ce) {
      return ce.kind() == ClientException.Kind.UNAVAILABLE ? FAILED : BAD_INPUT;
    }
    return FAILED;
  }

  static String oneLine(Throwable ex) {
    String msg = ex.getMessage();
    if (msg == null || msg.isBlank()) {
      msg = ex.getClass().getSimpleName();
    }
    if (ex instanceof CatalogException) {
      return "the plane's resource files are invalid:\n  " + msg.replace("\n", "\n  ");
    }
    if (ex instanceof cp.agents.AgentDefinitionException || ex instanceof cp.tools.registry.ToolRegistryException) {
      return msg.replace("\n", "\n  ");
    }
    return msg.replace('\n', ' ');
  }

  /**
   * A client failure on one line with what cpctl can do about it: the client is a library and
   * names no command, so the hints are added here.
   */
  static String clientLine(ClientException e) {
    String sid = e.sessionId();
    String hint = switch (e.kind()) {
      case ENDED -> "; 'cpctl chat' or 'cpctl session start' starts a new one";
      case NOT_FOUND -> sid == null ? "" : "; 'cpctl show " + sid + "' reads what its ledgers recorded, 'cpctl session"
          + " start' starts a new session";
      case UNAVAILABLE -> sid == null ? "" : "; 'cpctl show " + sid + "' reads what its ledgers recorded";
      case REFUSED, UNSUPPORTED -> "";
    };
    return oneLine(e) + hint;
  }

  /** The message of the innermost cause (wrappers often prefix it with the cause's class name), on one line. */
  static String innermostMessage(Throwable ex) {
    return oneLine(RootCause.innermost(ex));
  }

  /** A problem with how a command was used that picocli cannot see (e.g. a needed service is missing). */
  static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /** Version from the jar manifest, or "dev" when run from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Cpctl.class.getPackage().getImplementationVersion();
      return new String[] {"cpctl " + (v == null ? "dev" : v)};
    }
  }
}

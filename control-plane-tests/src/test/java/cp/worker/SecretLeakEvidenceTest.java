package cp.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import cp.cli.CpctlRunner;
import cp.client.ClientException;
import cp.gateway.ProviderException;
import cp.gateway.ProviderFixtures;
import cp.model.Json;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.tools.ToolResult;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Evidence that API keys stay secret through real turns: a canary Anthropic key (used for every
 * request to a mock Messages API) and a canary Temporal API key are searched for in every place
 * a key could leak to: workflow histories, the ledgers' raw bytes, everything logged or printed,
 * the exceptions and answers the caller saw, search attributes and describe output, and
 * {@code cpctl config}. The mock answers normally (with a tool loop), fails with 500 echoing the
 * key (Temporal retries), answers 401, and answers 401 with the key echoed in the error body.
 *
 * <p>The Temporal key is held by the configuration but not sent: the embedded service takes no
 * key. It is searched for because a configuration object can end up in a log line.
 */
class SecretLeakEvidenceTest {
  private final String hex = HexFormat.of().formatHex(SecureRandom.getSeed(12));
  private final String anthropicCanary = "sk-ant-canary-" + hex;
  private final String temporalCanary = "tmprl-canary-" + hex;

  @TempDir Path home;
  @StartStop final MockWebServer anthropic = new MockWebServer();

  enum Mode { NORMAL, SERVER_ERROR_ECHO_ONCE, UNAUTHORIZED, UNAUTHORIZED_ECHO }

  private final AtomicReference<Mode> mode = new AtomicReference<>(Mode.NORMAL);
  private final List<String> sentKeys = Collections.synchronizedList(new ArrayList<>());

  /** The Messages API, scripted: classify (no tools) answers JSON; synthesize calls list_packages once, then answers. */
  private final class MessagesApi extends Dispatcher {
    @Override
    public MockResponse dispatch(RecordedRequest r) {
      sentKeys.add(r.getHeaders().get("x-api-key"));
      switch (mode.get()) {
        case SERVER_ERROR_ECHO_ONCE -> {
          mode.set(Mode.NORMAL);
          return json(500, "<html>upstream rejected key " + anthropicCanary + "</html>");
        }
        case UNAUTHORIZED -> {
          return json(401, error("authentication_error", "invalid x-api-key"));
        }
        case UNAUTHORIZED_ECHO -> {
          return json(401, error("authentication_error", "invalid x-api-key: " + anthropicCanary));
        }
        default -> { }
      }
      JsonNode body = Json.parse(r.getBody().utf8());
      if (!body.has("tools")) {
        return text("{\"speech_act\":\"question\",\"ambiguity\":\"low\",\"intent\":\"list_installed_packages\"}");
      }
      if (r.getBody().utf8().contains("\"tool_result\"")) {
        return text("{\"response_text\":\"There are 3 packages installed.\"}");
      }
      return json(200, """
          {"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5",
           "content":[{"type":"tool_use","id":"toolu_01","name":"list_packages","input":{}}],
           "stop_reason":"tool_use","usage":{"input_tokens":30,"output_tokens":10}}""");
    }
  }

  private static String error(String type, String message) {
    return Json.object().put("type", "error").set("error", Json.object().put("type", type).put("message", message))
        .toString();
  }

  private static MockResponse text(String t) {
    String body = Json.object().put("id", "msg_1").put("type", "message").put("role", "assistant")
        .put("model", "claude-sonnet-4-5").put("stop_reason", "end_turn")
        .set("content", Json.MAPPER.createArrayNode().add(Json.object().put("type", "text").put("text", t)))
        .toString();
    return json(200, body.substring(0, body.length() - 1) + ",\"usage\":{\"input_tokens\":20,\"output_tokens\":8}}");
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse.Builder().code(status).setHeader("content-type", "application/json").body(body).build();
  }

  @Test
  void canaryKeys_areSentToTheProvider_andAppearInNoHistoryLedgerLogExceptionSearchAttributeOrConfigOutput()
      throws Exception {
    anthropic.setDispatcher(new MessagesApi());
    Map<String, String> env = new HashMap<>(PlaneFixture.env(home, Map.of(
        "CP_PROVIDER", "anthropic",
        "ANTHROPIC_API_KEY", anthropicCanary,
        "ANTHROPIC_BASE_URL", anthropic.url("/").toString(),
        "TEMPORAL_API_KEY", temporalCanary)));
    List<String> surfaces = new ArrayList<>();
    List<String> histories = new ArrayList<>();
    List<String> ledgers = new ArrayList<>();
    List<String> answers = new ArrayList<>();

    Capture capture = Capture.start();
    try {
      try (PlaneFixture plane = PlaneFixture.start(env,
          deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("cp-core 1.0.0\ncp-gateway 1.0.0\ncp-tools 1.0.0"))) {
        surfaces.add(plane.config.toString());
        surfaces.add(plane.runtime.provider().toString());
        String sid = plane.client.startSession("ADMIN");

        TurnResult ok = turn(plane, sid, "what packages are installed?", answers);
        assertEquals(TurnOutcome.SUCCESS, ok.outcome(), ok.response());
        assertFalse(ok.toolCalls().isEmpty(), "the normal turn ran a tool loop");

        mode.set(Mode.SERVER_ERROR_ECHO_ONCE);
        TurnResult retried = turn(plane, sid, "and now?", answers);
        assertEquals(TurnOutcome.SUCCESS, retried.outcome(), "a 500 is retried by Temporal: " + retried.response());

        mode.set(Mode.UNAUTHORIZED);
        TurnResult unauthorized = turn(plane, sid, "still there?", answers);
        assertEquals(TurnOutcome.ERROR, unauthorized.outcome(), unauthorized.response());

        mode.set(Mode.UNAUTHORIZED_ECHO);
        TurnResult echoed = turn(plane, sid, "hello again", answers);
        assertEquals(TurnOutcome.ERROR, echoed.outcome(), echoed.response());

        // The exception a caller of the provider itself sees, with the key echoed back.
        ProviderException direct = assertThrows(ProviderException.class,
            () -> plane.runtime.provider().send(ProviderFixtures.request().build()));
        answers.add(direct.getMessage() + "\n" + direct + "\n" + direct.providerMessage() + "\n" + stackTrace(direct));

        mode.set(Mode.NORMAL);
        answers.add(String.valueOf(plane.client.end(sid)));

        for (WorkflowExecutionHistory h : plane.histories(sid)) {
          histories.addAll(PlaneFixture.surfaces(h));
        }
        assertEquals(5, histories.stream().filter(s -> s.startsWith("{")).count(), "session + 4 turn histories");
        plane.descriptions(sid).forEach(d -> {
          surfaces.add(d.toString());
          surfaces.add(new String(d.toByteArray(), StandardCharsets.ISO_8859_1));
        });
      }
    } finally {
      capture.stop();
    }

    try (Stream<Path> files = Files.walk(home)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        ledgers.add(f + "\n" + new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
      }
    }
    CpctlRunner.Result config = CpctlRunner.run(env, "config");
    assertEquals(0, config.code(), config.err());

    // The keys were used: every request to the provider carried the Anthropic key.
    assertTrue(sentKeys.size() >= 8, "requests: " + sentKeys.size());
    assertTrue(sentKeys.stream().allMatch(anthropicCanary::equals), "x-api-key on every request");

    // The surfaces are real: they hold what this scenario produced.
    String allLedgers = String.join("\n", ledgers);
    assertTrue(ledgers.stream().anyMatch(l -> l.contains("governance.jsonl")), "HOT ledger read");
    assertTrue(allLedgers.contains("\"error_code\":\"authentication\""), "the 401 was recorded");
    assertTrue(allLedgers.contains("upstream rejected key sk-") && allLedgers.contains("(masked)</html>")
        && allLedgers.contains("invalid x-api-key: sk-"), "the echoed key was recorded, masked");
    assertTrue(capture.texts().stream().anyMatch(t -> t.contains("/v1/messages -> HTTP 401")),
        "the provider's debug lines were captured");
    assertTrue(capture.texts().stream().anyMatch(t -> t.contains("Activity failure")),
        "Temporal's activity-failure warnings were captured");
    assertTrue(config.out().contains("provider API key") && config.out().contains("TEMPORAL_API_KEY"), config.out());

    surfaces.addAll(histories);
    surfaces.addAll(ledgers);
    surfaces.addAll(answers);
    surfaces.addAll(capture.texts());
    surfaces.add(config.out());
    surfaces.add(config.err());
    for (String canary : List.of(anthropicCanary, temporalCanary, hex)) {
      for (String s : surfaces) {
        if (s.contains(canary)) {
          int at = s.indexOf(canary);
          String around = s.substring(Math.max(0, at - 300), Math.min(s.length(), at + 100));
          throw new AssertionError("secret " + canary + " leaked into: ..." + around);
        }
      }
    }
  }

  private static TurnResult turn(PlaneFixture plane, String sid, String text, List<String> answers) {
    try {
      TurnResult r = plane.client.turn(sid, text);
      answers.add(Json.MAPPER.valueToTree(r).toString());
      return r;
    } catch (ClientException e) {
      answers.add(stackTrace(e));
      throw e;
    }
  }

  static String stackTrace(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    return w.toString();
  }

  /**
   * Everything logged (all loggers, DEBUG and up, with messages, arguments and throwables) and
   * everything written to System.out and System.err while a scenario runs.
   */
  static final class Capture {
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Map<Logger, Level> levels = new HashMap<>();
    private final PrintStream originalOut = System.out;
    private final PrintStream originalErr = System.err;
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    static Capture start() {
      Capture c = new Capture();
      LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
      for (String name : List.of(Logger.ROOT_LOGGER_NAME, "cp", "io.temporal", "io.grpc")) {
        Logger l = ctx.getLogger(name);
        c.levels.put(l, l.getLevel());
        l.setLevel(Level.DEBUG);
      }
      c.appender.setContext(ctx);
      c.appender.start();
      ctx.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(c.appender);
      System.setOut(new PrintStream(new Tee(c.originalOut, c.printed), true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(new Tee(c.originalErr, c.printed), true, StandardCharsets.UTF_8));
      return c;
    }

    void stop() {
      System.setOut(originalOut);
      System.setErr(originalErr);
      LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
      ctx.getLogger(Logger.ROOT_LOGGER_NAME).detachAppender(appender);
      levels.forEach(Logger::setLevel);
    }

    List<String> texts() {
      List<String> out = new ArrayList<>();
      out.add(printed.toString(StandardCharsets.UTF_8));
      synchronized (appender.list) {
        for (ILoggingEvent e : appender.list) {
          out.add(e.getFormattedMessage());
          out.add(String.valueOf(e.getMDCPropertyMap()));
          if (e.getArgumentArray() != null) {
            for (Object a : e.getArgumentArray()) {
              out.add(String.valueOf(a));
            }
          }
          for (IThrowableProxy t = e.getThrowableProxy(); t != null; t = t.getCause()) {
            out.add(t.getClassName() + ": " + t.getMessage());
            for (StackTraceElementProxy s : t.getStackTraceElementProxyArray()) {
              out.add(s.getSTEAsString());
            }
            for (IThrowableProxy sup : t.getSuppressed()) {
              out.add(sup.getMessage());
            }
          }
        }
      }
      return out;
    }
  }

  /** Writes to the real stream and to a buffer. */
  private static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws IOException {
      a.write(c);
      synchronized (b) {
        b.write(c);
      }
    }

    @Override
    public void write(byte[] buf, int off, int len) throws IOException {
      a.write(buf, off, len);
      synchronized (b) {
        b.write(buf, off, len);
      }
    }

    @Override
    public void flush() throws IOException {
      a.flush();
    }
  }
}

package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.faults.FaultHook;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.Json;
import cp.model.TurnResult;
import cp.observability.SecretMasker;
import cp.observability.Telemetry;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import cp.worker.ProcessServices;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 §1 "Secrets in part", end to end: a provider's error echoes the API key in part (without
 * its prefix, its last 12 characters, base64 of it). None of it reaches the span attributes, the
 * ledger files, {@code cpctl show} or {@code cpctl ledger query}, nor Temporal's history (failure
 * messages and stack traces); spans carry no exception message.
 * A secret-looking line a tool reads is recorded masked in TOOL_CALL. Entries written unmasked
 * (before masking existed) are masked when the CLI prints them.
 */
class SecretsInPartTest {
  static final String KEY = "sk-ant-api03-R4nd0mK3yM4t3r14lXq8Zp2Lw7Ty1Vb6Nc9Md3Fg5Hj0Ks-QwErTyAA";
  static final String NO_PREFIX = KEY.substring("sk-ant-api03-".length());
  static final String LAST12 = KEY.substring(KEY.length() - 12);
  static final String B64 = Base64.getEncoder().encodeToString(KEY.getBytes(StandardCharsets.UTF_8));
  static final String FILE_KEY = "sk-ant-api03-AFileLineNobodyConfiguredZZ9988776655aaBBccDD";

  @TempDir Path home;
  @StartStop final MockWebServer anthropic = new MockWebServer();
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  /** The spans of the turn, taken before the telemetry closes (closing clears the in-memory exporter). */
  private List<SpanData> exported = List.of();
  /** Every form of the session's and turns' Temporal histories (JSON and raw event bytes). */
  private List<String> histories = List.of();

  /** What must appear nowhere: fragments of the configured key, and the file's key. */
  static final List<String> NEEDLES = List.of(NO_PREFIX.substring(0, 16), LAST12, B64.substring(12, 44),
      FILE_KEY.substring(13));

  @Test
  void aProviderEchoingTheKeyInPart_reachesNoSpanNoLedgerLineAndNoCliOutput() throws Exception {
    String echo = "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key "
        + NO_PREFIX + " (ending " + LAST12 + "); the header was " + B64 + "\"}}";
    for (int i = 0; i < 10; i++) {
      anthropic.enqueue(new MockResponse.Builder().code(401).setHeader("content-type", "application/json").body(echo)
          .build());
    }
    Map<String, String> env = PlaneFixture.env(home, Map.of("CP_PROVIDER", "anthropic", "ANTHROPIC_API_KEY", KEY,
        "ANTHROPIC_BASE_URL", anthropic.url("/").toString()));
    String sid = runOneTurn(env, "hello");
    assertTrue(anthropic.getRequestCount() > 0);

    List<LedgerEntry> errors;
    try (Ledgers ledgers = Ledgers.open(home)) {
      errors = ledgers.hot().byEventType("EXCHANGE");
    }
    assertFalse(errors.isEmpty());
    assertTrue(errors.stream().anyMatch(e -> Json.write(e.toJson(true)).contains("[masked:ANTHROPIC_API_KEY]")),
        "the echo is recorded, masked: " + errors);
    assertNowhere(env, sid);
  }

  @Test
  void aSecretLookingLineReadByATool_isRecordedMaskedInToolCall() throws Exception {
    Files.createDirectories(home);
    Files.writeString(home.resolve("README.md"), "# plane\nANTHROPIC_API_KEY=" + FILE_KEY + "\nend\n");
    Map<String, String> env = PlaneFixture.env(home, Map.of());
    String sid = runOneTurn(env, "read README.md");
    try (Ledgers ledgers = Ledgers.open(home)) {
      List<LedgerEntry> calls = ledgers.ho1().byEventType("TOOL_CALL");
      assertEquals(1, calls.size(), "read_file ran");
      assertTrue(Json.write(calls.get(0).toJson(true)).contains("[masked:anthropic-key]"), calls.toString());
      assertTrue(calls.get(0).metaTextAt("/masked") != null || calls.get(0).meta("masked") != null,
          "the entry lists what it masked");
    }
    assertNowhere(env, sid);
  }

  @Test
  void entriesWrittenBeforeMasking_areMaskedWhenTheCliPrintsThem() throws Exception {
    String sid = "SES-0badc0de";
    try (Ledgers raw = Ledgers.open(home)) { // the plain store, as an older worker wrote
      raw.hot().write(LedgerEntry.builder("EXCHANGE").reason("provider said key " + NO_PREFIX)
          .metadata(Json.object().put("session_id", sid).put("error", "ending " + LAST12 + " / " + B64)
              .put("file", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----"))
          .build());
    }
    Map<String, String> env = PlaneFixture.env(home, Map.of("ANTHROPIC_API_KEY", KEY));
    for (String[] args : List.of(new String[] {"ledger", "query", "--tier", "hot"},
        new String[] {"ledger", "query", "--tier", "hot", "--json"})) {
      CliHarness.Run r = CliHarness.run(env, args);
      assertEquals(Cpctl.OK, r.code(), r::describe);
      assertTrue(r.out().contains("[masked:ANTHROPIC_API_KEY]"), r.out());
      NEEDLES.forEach(n -> assertFalse(r.out().contains(n), String.join(" ", args) + " prints " + n + ":\n" + r.out()));
      assertFalse(r.out().contains("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"), r.out());
    }
  }

  private String runOneTurn(Map<String, String> env, String text) {
    SecretMasker masker = SecretMasker.fromEnv(env);
    try (Telemetry telemetry = Telemetry.exportingTo(spans, null, false, masker)) {
      String sid;
      try (PlaneFixture plane = PlaneFixture.start(env, new ProcessServices(telemetry, FaultHook.NONE, masker),
          PlaneRuntime::builtinTools)) {
        sid = plane.client.startSession("ADMIN");
        TurnResult r = plane.client.turn(sid, text);
        assertTrue(r.outcome() != null);
        plane.client.end(sid);
        histories = plane.histories(sid).stream().flatMap(h -> PlaneFixture.surfaces(h).stream()).toList();
      }
      exported = List.copyOf(spans.getFinishedSpanItems());
      return sid;
    }
  }

  /** The spans, every file under CP_HOME, and what show and ledger query print: none holds a needle. */
  private void assertNowhere(Map<String, String> env, String sid) throws Exception {
    List<SpanData> all = exported;
    assertFalse(all.isEmpty());
    for (SpanData s : all) {
      String text = s.getName() + " " + s.getAttributes() + " " + s.getEvents() + " " + s.getStatus();
      NEEDLES.forEach(n -> assertFalse(text.contains(n), "span " + s.getName() + " holds " + n + ": " + text));
      assertFalse(text.contains("exception.message") || text.contains("exception.stacktrace"),
          "no error text on span " + s.getName() + ": " + text);
    }
    assertFalse(histories.isEmpty());
    for (String h : histories) {
      NEEDLES.forEach(n -> assertFalse(h.contains(n), "Temporal's history holds " + n));
    }
    List<String> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(home)) {
      for (Path p : walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals("README.md"))
          .toList()) {
        files.add(p + ":\n" + Files.readString(p, StandardCharsets.ISO_8859_1));
      }
    }
    for (String f : files) {
      NEEDLES.forEach(n -> assertFalse(f.contains(n), "the file holds " + n + ": " + f));
    }
    Map<String, String> cliEnv = new HashMap<>(env);
    for (String[] args : List.of(new String[] {"show", sid}, new String[] {"show", sid, "--json"},
        new String[] {"ledger", "query", "--tier", "hot", "--json", "--limit", "0"},
        new String[] {"ledger", "query", "--tier", "ho1", "--json", "--limit", "0"})) {
      CliHarness.Run r = CliHarness.run(cliEnv, args);
      assertEquals(Cpctl.OK, r.code(), r::describe);
      NEEDLES.forEach(n -> assertFalse(r.out().contains(n), String.join(" ", args) + " prints " + n + ":\n" + r.out()));
    }
  }
}

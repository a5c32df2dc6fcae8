package cp.cli;

import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.PlaneLayout;
import cp.model.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad turn text through {@code cpctl turn} against a shared service: empty, blank, 1 MB and 3 MB,
 * above the agent's limit, control characters, broken Unicode, bytes that were not UTF-8. Each is
 * refused in one line with exit 2; nothing is written to any ledger, the session's history holds
 * no Update for it (a refusal before Temporal sends nothing; the Update validator's refusal is not
 * recorded), and the session then takes a good turn as its turn 1: nothing was lost or counted.
 */
class BadTurnInputTest {
  static final int MEGABYTE = 1024 * 1024;
  /** EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ADMITTED, _ACCEPTED, _REJECTED, _COMPLETED. */
  static final String UPDATE_EVENT_PREFIX = "EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_";
  static final Duration SESSION_START_WAIT = Duration.ofSeconds(10);
  static final Duration POLL = Duration.ofMillis(20);
  /** The ADMIN agent's budget.max_message_bytes. */
  static final int ADMIN_LIMIT = 100_000;

  @TempDir static Path home;
  private static SharedService service;
  private static Map<String, String> env;
  private String sid;

  @BeforeAll
  static void startService() throws Exception {
    service = SharedService.start(home);
    env = service.env();
  }

  @AfterAll
  static void stop() {
    if (service != null) {
      service.close();
    }
  }

  @BeforeEach
  void startSession() throws InterruptedException {
    var r = run(env, "session", "start");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    sid = r.out().trim();
    // The session writes SESSION_START in its first workflow task, after 'session start' returned.
    long deadline = System.nanoTime() + SESSION_START_WAIT.toNanos();
    while (service.runtime.ledgers().hot().bySession(sid).isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "no SESSION_START for " + sid + " within " + SESSION_START_WAIT);
      Thread.sleep(POLL.toMillis());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "   ", "\t \n  "})
  void emptyOrBlankText_isRefused(String text) throws Exception {
    assertRefusedWithNothingWritten(text, "the message is empty");
  }

  @Test
  void oneMegabyte_isRefusedByTheClientBeforeItReachesTemporal() throws Exception {
    assertRefusedWithNothingWritten("a".repeat(MEGABYTE), "the message is 1048576 bytes; the limit is 524288 bytes"
        + " (the most a client sends in one message; Temporal refuses payloads over 2 MB)");
  }

  @Test
  void threeMegabytes_overTemporalsPayloadLimit_isRefusedByTheClientBeforeItReachesTemporal() throws Exception {
    assertRefusedWithNothingWritten("é".repeat(3 * MEGABYTE / 2), "the message is 3145728 bytes; the limit is 524288");
  }

  @Test
  void aboveTheAgentsLimit_isRefusedByTheSessionsValidator_leavingNoUpdateInHistory() throws Exception {
    assertRefusedWithNothingWritten("b".repeat(ADMIN_LIMIT + 1), "the message is 100001 bytes; the limit is 100000"
        + " bytes (agent budget.max_message_bytes)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"ring \u0007 bell", "\u001b[31mred\u001b[0m", "nul\u0000byte", "del\u007f"})
  void controlCharacters_areRefusedNamingTheCharacter(String text) throws Exception {
    assertRefusedWithNothingWritten(text, "the message contains control character U+");
  }

  @Test
  void anUnpairedSurrogate_isRefusedAsInvalidUnicode() throws Exception {
    assertRefusedWithNothingWritten("half \uD83D a smiley", "unpaired surrogate at position 5");
  }

  @Test
  void bytesThatWereNotUtf8_areRefusedInsteadOfReachingTheModelAsReplacementCharacters() throws Exception {
    // What the JVM passes a command for the argument bytes 'ab\xffcd' (checked: 0061 0062 fffd 0063 0064).
    assertRefusedWithNothingWritten("ab\uFFFDcd", "TEXT is not valid UTF-8: U+FFFD at position 2");
  }

  /** Sends {@code text}, expects a one-line refusal containing {@code why}, and checks nothing was written. */
  private void assertRefusedWithNothingWritten(String text, String why) throws Exception {
    Map<String, Long> ledgersBefore = ledgerLines();
    long updatesBefore = updateEvents();

    var r = run(env, "turn", "--session", sid, text);

    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains(why), () -> "expected '" + why + "'\n" + r.describe());
    assertTrue(r.err().length() < 1000, "the refusal does not echo the message: " + r.err().length() + " chars");
    assertEquals(ledgersBefore, ledgerLines(), "no ledger line was written");
    assertEquals(updatesBefore, updateEvents(), "the session's history holds no Update for the refused text");

    var good = run(env, "turn", "--session", sid, "--json", "hello");
    assertEquals(Cpctl.OK, good.code(), good::describe);
    assertEquals(1, Json.parse(good.out()).path("turn").asInt(), "the refused text did not count as a turn");
  }

  /** Lines per ledger file under the plane root. */
  private static Map<String, Long> ledgerLines() throws IOException {
    Map<String, Long> lines = new TreeMap<>();
    for (PlaneLayout.LedgerFile f : new PlaneLayout(home).existingLedgers()) {
      try (Stream<String> s = Files.lines(f.path(), StandardCharsets.UTF_8)) {
        lines.put(f.label(), s.count());
      }
    }
    return lines;
  }

  /** Update events (admitted, accepted, rejected, completed) in the session's history. */
  private long updateEvents() {
    return service.workerConnection.client().fetchHistory(sid).getEvents().stream()
        .filter(e -> e.getEventType().name().startsWith(UPDATE_EVENT_PREFIX))
        .count();
  }
}

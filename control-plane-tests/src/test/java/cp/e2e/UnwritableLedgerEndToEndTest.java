package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import cp.client.ClientException;
import cp.gateway.ForwardingProvider;
import cp.gateway.OfflineProvider;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.ledger.LedgerEntry;
import cp.ledger.WriteFaults;
import cp.model.PromptRequest;
import cp.model.SessionSummary;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Issue 11 item 8: a HOT ledger that cannot be written under a running worker. The plane runs as
 * {@code cpctl chat} assembles it, with the production retry settings (LLM calls 5 attempts,
 * local activities 5, backoff from 1 s), so any retry would show in the time a turn takes. After
 * SESSION_START the HOT ledger is broken from outside the ledger code (bytes appended to the
 * file, the file made immutable, its disk full), and the test checks that the provider is never
 * called for a call that could not be recorded, that the turn returns at once with one honest line
 * naming the ledger and what to do, that the worker logs that line once, and that {@code end}
 * finishes.
 */
class UnwritableLedgerEndToEndTest {
  /** A turn or end that takes longer than this has retried or hung (one retry alone waits 1 s). */
  static final Duration PROMPT = Duration.ofSeconds(5);
  /** What the production defaults would make of a retried failure: far beyond {@link #PROMPT}. */
  static final Map<String, String> PRODUCTION_RETRIES = Map.of("CP_RETRY_INITIAL_MS", "1000",
      "CP_RETRY_MAX_MS", "30000", "CP_LLM_MAX_ATTEMPTS", "5", "CP_LOCAL_MAX_ATTEMPTS", "5",
      "CP_DEGRADED_MAX_ATTEMPTS", "2");
  /** A full disk is retried: 5 LLM attempts (15 s of backoff) and 2 degraded ones (1 s), then the answer. */
  static final Duration FULL_DISK_TURN = Duration.ofSeconds(40);
  static final Pattern JAVA_NAME = Pattern.compile("\\b(cp|java|io|javax)\\.[a-z]+\\.|Exception\\b");
  static final String HOT_NAME = "HOT ledger HOT/ledger/governance.jsonl cannot be written";

  @TempDir Path home;
  /** The ledgers' write check: makes the HOT file fail as a full disk or an immutable file would. */
  private final WriteFaults writeFaults = new WriteFaults();
  private final Counting provider = new Counting();
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private PlaneFixture plane;
  private Path hot;

  /** Counts the calls that reach the model. */
  static final class Counting extends ForwardingProvider {
    final AtomicInteger calls = new AtomicInteger();

    Counting() {
      super(new OfflineProvider());
    }

    @Override
    public ProviderReply send(PromptRequest r) throws ProviderException {
      calls.incrementAndGet();
      return super.send(r);
    }
  }

  @BeforeEach
  void watchLog() {
    log.start();
    root.addAppender(log);
  }

  @AfterEach
  void stop() {
    root.detachAppender(log);
    if (hot != null) {
      writeFaults.clear(hot);
      chattr("-i", hot);
    }
    if (plane != null) {
      plane.close();
    }
  }

  private String startPlaneAndSession(Map<String, String> extra) throws InterruptedException {
    Map<String, String> env = new HashMap<>(PRODUCTION_RETRIES);
    env.putAll(extra);
    plane = PlaneFixture.start(PlaneFixture.env(home, env), provider, PlaneRuntime::builtinTools,
        cp.ledger.LedgerHooks.NONE.withWrites(writeFaults));
    hot = home.resolve("HOT/ledger/governance.jsonl");
    String sid = plane.client.startSession("ADMIN");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (plane.runtime.ledgers().hot().bySession(sid).isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "SESSION_START was not written");
      Thread.sleep(20);
    }
    return sid;
  }

  private static <T> T within(Duration limit, String what, Supplier<T> call) throws Exception {
    CompletableFuture<T> f = CompletableFuture.supplyAsync(call);
    try {
      return f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      fail(what + " did not return within " + limit.toMillis() + " ms (it retried or hung)");
      return null;
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }

  /** Operator lines (WARN or above, from our code) that name the ledger. */
  private List<String> operatorLines(String needle) {
    List<String> out = new ArrayList<>();
    for (ILoggingEvent e : List.copyOf(log.list)) {
      if (e.getLevel().isGreaterOrEqual(Level.WARN) && e.getLoggerName().startsWith("cp.")
          && e.getFormattedMessage().contains(needle)) {
        out.add(e.getLevel() + " " + e.getFormattedMessage());
      }
    }
    return out;
  }

  private void assertOneHonestLine(String text, String... needles) {
    assertFalse(text.contains("\n"), () -> "one line: " + text);
    assertFalse(JAVA_NAME.matcher(text).find(), () -> "no Java class names: " + text);
    for (String n : needles) {
      assertTrue(text.contains(n), () -> "'" + n + "' in: " + text);
    }
  }

  private void assertNoWorkflowTaskFailed(String sid) {
    for (WorkflowExecutionHistory h : plane.histories(sid)) {
      assertFalse(h.getEvents().stream().anyMatch(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED),
          () -> h.getWorkflowExecution().getWorkflowId() + " had a failed workflow task");
    }
  }

  private List<LedgerEntry> hotEntries(String sid, String type) {
    return plane.runtime.ledgers().hot().bySession(sid).stream().filter(e -> type.equals(e.eventType())).toList();
  }

  @Test
  void aCorruptLineAppendedUnderARunningWorker_noCall_anHonestErrorAtOnce_oneLogLine_andEndFinishes()
      throws Exception {
    String sid = startPlaneAndSession(Map.of());
    Files.write(hot, "{\"event_type\":\"EXCHANGE\",\"written_by\":\"someone else\"}\n".getBytes(StandardCharsets.UTF_8),
        StandardOpenOption.APPEND);

    long t0 = System.nanoTime();
    TurnResult r = within(PROMPT, "the turn", () -> plane.client.turn(sid, "hello"));
    long turnMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

    assertEquals(0, provider.calls.get(), "no call is sent (nor paid) that the HOT ledger could not record");
    assertEquals(TurnOutcome.ERROR, r.outcome(), r::toString);
    assertEquals("ledger_unwritable", r.errorCode(), r::toString);
    assertOneHonestLine(r.response(), HOT_NAME, "line 2", "cpctl ledger verify", "cpctl ledger repair --tier hot");
    assertEquals(List.of(), r.exchangeEntryIds());
    List<String> lines = operatorLines(HOT_NAME);
    assertEquals(1, lines.size(), () -> "the worker says it once: " + lines);
    assertTrue(lines.get(0).startsWith("ERROR"), lines::toString);
    assertOneHonestLine(lines.get(0), "cpctl ledger repair --tier hot");
    List<LedgerEntry> failed = plane.runtime.ledgers().ho1().bySession(sid).stream()
        .filter(e -> "WO_FAILED".equals(e.eventType())).toList();
    assertEquals(1, failed.size(), "HO1 failed the classify work order");
    assertEquals("ledger_unwritable", failed.get(0).metaText("error_code"));

    long e0 = System.nanoTime();
    SessionSummary s = within(PROMPT, "end", () -> plane.client.end(sid));
    long endMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - e0);
    assertNotNull(s.endNotRecorded(), "the summary says SESSION_END is not on record");
    assertOneHonestLine(s.endNotRecorded(), "SESSION_END could not be written", HOT_NAME,
        "cpctl ledger repair --tier hot");
    assertEquals(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED,
        plane.connection.client().newUntypedWorkflowStub(sid).describe().getStatus(), "the session ended");
    assertNoWorkflowTaskFailed(sid);
    assertEquals(1, operatorLines(HOT_NAME).size(), "still one line after DEGRADATION and SESSION_END were refused");
    assertEquals(0, provider.calls.get());
    System.out.printf("UnwritableLedgerEndToEndTest: corrupt HOT ledger: turn answered in %d ms, end in %d ms,"
        + " 0 provider calls%n", turnMs, endMs);

    // The repair it names works on the running worker, from another process.
    CpctlProcess repair = CpctlProcess.run(home, "ledger", "repair", "--tier", "hot");
    assertEquals(0, repair.code, repair::toString);
    String next = plane.client.startSession("ADMIN");
    TurnResult ok = within(Duration.ofSeconds(30), "a turn after the repair", () -> plane.client.turn(next, "hello"));
    assertEquals(TurnOutcome.SUCCESS, ok.outcome(), ok::toString);
    assertTrue(plane.runtime.ledgers().hot().verify().ok());
    assertFalse(operatorLines("takes appends again").isEmpty(), "the worker says the ledger works again");
  }

  @Test
  void anImmutableHotLedger_noCall_anHonestErrorAtOnce_andEndFinishes() throws Exception {
    String sid = startPlaneAndSession(Map.of());
    String how = makeImmutable(hot);

    TurnResult r = within(PROMPT, "the turn", () -> plane.client.turn(sid, "hello"));

    assertEquals(0, provider.calls.get(), "no call is sent that the HOT ledger could not record (" + how + ")");
    assertEquals(TurnOutcome.ERROR, r.outcome(), r::toString);
    assertEquals("ledger_unwritable", r.errorCode());
    assertOneHonestLine(r.response(), HOT_NAME, "Operation not permitted", "lsattr");
    assertEquals(1, operatorLines(HOT_NAME).size(), () -> operatorLines(HOT_NAME).toString());
    SessionSummary s = within(PROMPT, "end", () -> plane.client.end(sid));
    assertOneHonestLine(s.endNotRecorded(), "SESSION_END could not be written", "Operation not permitted");
    assertNoWorkflowTaskFailed(sid);
    assertEquals(1, operatorLines(HOT_NAME).size());
    System.out.println("UnwritableLedgerEndToEndTest: immutable HOT ledger made with " + how);
  }

  @Test
  void aFullDisk_noCall_saysDiskFull_endWaitsForSpace_andBothWorkOnceSpaceIsFreed() throws Exception {
    String sid = startPlaneAndSession(Map.of());
    writeFaults.fail(hot, WriteFaults.DISK_FULL);

    // A full disk is transient: the LLM round is retried with the production backoff (1+2+4+8 s),
    // then the degraded call once more (1 s); nothing else waits (before: the DEGRADATION write's
    // local retries outlasted the workflow task and restarted for ever, and the turn never answered).
    long t0 = System.nanoTime();
    TurnResult r = within(FULL_DISK_TURN, "the turn", () -> plane.client.turn(sid, "hello"));
    long turnMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

    assertEquals(0, provider.calls.get());
    assertEquals(TurnOutcome.ERROR, r.outcome(), r::toString);
    assertEquals("ledger_unwritable", r.errorCode());
    assertOneHonestLine(r.response(), HOT_NAME, "disk full", "free space");
    assertEquals(1, operatorLines(HOT_NAME).size(), () -> operatorLines(HOT_NAME).toString());

    ClientException refused = null;
    try {
      within(PROMPT, "end", () -> plane.client.end(sid));
    } catch (ClientException e) {
      refused = e;
    }
    assertNotNull(refused, "with the disk full, end says so and the session stays open for a later end");
    System.out.printf("UnwritableLedgerEndToEndTest: full disk: turn answered in %d ms (retried), 0 provider calls%n",
        turnMs);
    assertOneHonestLine(refused.getMessage(), HOT_NAME, "disk full");
    assertTrue(plane.client.isRunning(sid));

    writeFaults.clear(hot);
    SessionSummary s = within(PROMPT, "end once space is free", () -> plane.client.end(sid));
    assertNull(s.endNotRecorded());
    assertEquals(1, hotEntries(sid, "SESSION_END").size(), "the second end wrote SESSION_END");
    assertNoWorkflowTaskFailed(sid);
    String next = plane.client.startSession("ADMIN");
    TurnResult ok = within(Duration.ofSeconds(30), "a turn once space is free", () -> plane.client.turn(next, "hello"));
    assertEquals(TurnOutcome.SUCCESS, ok.outcome(), ok::toString);
    assertFalse(operatorLines("takes appends again").isEmpty());
  }

  /**
   * Makes the open HOT ledger refuse writes: {@code chattr +i} (real EPERM from the kernel, even
   * for root) where the process may; otherwise the ledger's write-fault hook with the same error.
   */
  private String makeImmutable(Path file) throws Exception {
    if (chattr("+i", file)) {
      try {
        Files.write(file, new byte[0], StandardOpenOption.APPEND);
        chattr("-i", file);
      } catch (IOException expected) {
        return "chattr +i";
      }
    }
    writeFaults.fail(file, WriteFaults.NOT_PERMITTED);
    return "the write-fault hook (chattr +i is not available to this process)";
  }

  private static boolean chattr(String flag, Path file) {
    try {
      Process p = new ProcessBuilder("chattr", flag, file.toString()).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  /** {@code cpctl} in a second JVM on this test's class path. */
  record CpctlProcess(int code, String output) {
    static CpctlProcess run(Path home, String... args) throws Exception {
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), "cp.cli.Cpctl"));
      cmd.addAll(List.of(args));
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
      pb.environment().put("CP_HOME", home.toString());
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      return new CpctlProcess(p.exitValue(), out);
    }
  }
}

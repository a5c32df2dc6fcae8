package cp.bench;

import cp.client.ControlPlaneClient;
import cp.client.TurnListener;
import cp.gateway.LlmProvider;
import cp.gateway.OfflineProvider;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.gateway.StreamSink;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.PromptRequest;
import cp.model.TurnEvent;
import cp.model.TurnResult;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.TemporalConnection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * P8 (issue 24): how fast a live turn reaches the client, on the embedded service. A model that
 * writes its reply in {@link #DELTAS} pieces {@link #PAUSE_MS} apart (in this process, so its
 * clock is the client's); per turn, time to first token — from the model's first text delta to
 * the Java client's first {@code text_delta} event (where {@code cpctl chat} prints it) — and the
 * tail — from the model's last delta to the client's result. Medians over the turns.
 */
final class LiveTurnBench {
  /** The P8 target for time to first token on the embedded service (issue 24); the goal is 50 ms. */
  static final double TTFT_TARGET_MS = 150;
  static final int DELTAS = 40;
  static final long PAUSE_MS = 25;
  static final String QUEUE = "bench-live";

  /** The benchmark's environment (without CP_STREAM_REPLIES: each session sets it). */
  private final Map<String, String> env;
  private final int turns;

  LiveTurnBench(Map<String, String> env, int turns) {
    this.env = env;
    this.turns = turns;
  }

  /** The offline model, except that synthesize streams a long reply slowly, noting when it wrote. */
  static final class TimedModel implements LlmProvider {
    private final LlmProvider offline = new OfflineProvider();
    volatile long firstDelta;
    volatile long lastDelta;

    @Override
    public String id() {
      return offline.id();
    }

    @Override
    public ProviderReply send(PromptRequest request) throws ProviderException {
      return stream(request, StreamSink.NONE);
    }

    @Override
    public ProviderReply stream(PromptRequest request, StreamSink sink) throws ProviderException {
      if (!request.contractId().startsWith(OfflineProvider.SYNTHESIZE_PREFIX)) {
        return offline.send(request);
      }
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < DELTAS; i++) {
        String piece = String.format(Locale.ROOT, "%-49s ", "sentence " + i + " of a long streamed answer.");
        String raw = i == 0 ? "{\"response_text\": \"" + piece : piece;
        if (i > 0) {
          sleep(PAUSE_MS);
        }
        if (i == 0) {
          firstDelta = System.nanoTime();
        }
        sink.text(raw);
        text.append(piece);
      }
      sink.text("\"}");
      lastDelta = System.nanoTime();
      String json = Json.object().put("response_text", text.toString()).toString();
      return new ProviderReply(List.of(ContentBlock.text(json)), 200, 80, "bench-stream", ProviderReply.STOP);
    }
  }

  /** One session's live turns: their times, and the session's and turns' history bytes per turn. */
  private record Run(List<Double> ttft, List<Double> tail, double historyBytesPerTurn, long signals) {}

  private Run session(boolean stream) throws Exception {
    TimedModel model = new TimedModel();
    PlaneConfig config = PlaneConfig.fromEnv(BenchEnv.with(env, "CP_STREAM_REPLIES", String.valueOf(stream)));
    List<Double> ttft = new ArrayList<>();
    List<Double> tail = new ArrayList<>();
    try (PlaneRuntime runtime = PlaneRuntime.open(config, model, PlaneRuntime::builtinTools, Clock.systemUTC());
        TemporalConnection conn = TemporalConnection.open(config)) {
      conn.ensureSearchAttributes();
      try (PlaneWorker worker = PlaneWorker.start(conn, runtime, QUEUE);
          ControlPlaneClient client = new ControlPlaneClient(conn.client(), config.worker().taskQueue(),
              runtime.catalog().agentClasses(), 0)) {
        String sid = client.startSession(TurnLatencyBench.AGENT);
        for (int t = 0; t < turns + 1; t++) {
          long[] firstSeen = {0};
          TurnResult r = client.turn(sid, "tell me a long story " + t, new TurnListener() {
            @Override
            public void onEvent(TurnEvent e) {
              if (firstSeen[0] == 0 && TurnEvent.TEXT_DELTA.equals(e.type())) {
                firstSeen[0] = System.nanoTime();
              }
            }

            @Override
            public boolean wantsEvents() {
              return true;
            }

            @Override
            public boolean wantsProgress() {
              return false;
            }
          });
          long done = System.nanoTime();
          PlainTurnLoop.requireSuccess(r.outcome(), sid, r.response());
          if (t > 0) { // the first turn warms up
            ttft.add((firstSeen[0] - model.firstDelta) / 1e6);
            tail.add((done - model.lastDelta) / 1e6);
          }
        }
        long bytes = conn.client().fetchHistory(sid).getHistory().getSerializedSize();
        long signals = 0;
        for (int t = 1; t <= turns + 1; t++) {
          var h = conn.client().fetchHistory(cp.model.WorkOrderIds.turnWorkflow(sid, t));
          bytes += h.getHistory().getSerializedSize();
          signals += h.getEvents().stream().filter(e -> e.hasWorkflowExecutionSignaledEventAttributes()).count();
        }
        return new Run(ttft, tail, (double) bytes / (turns + 1), signals);
      }
    }
  }

  List<Measure> run() throws Exception {
    Run on = session(true);
    Run off = session(false);
    double median = Stats.median(on.ttft());
    String detail = String.format(Locale.ROOT, "%d turns; the model writes a %d-character reply in %d deltas %d ms"
        + " apart; p90 %.0f ms; the client reads the turn's events every %d ms", turns, DELTAS * 50, DELTAS, PAUSE_MS,
        Stats.percentile(on.ttft(), 90), cp.model.ClientDefaults.EVENT_POLL_INTERVAL.toMillis());
    return List.of(
        Measure.target(Measure.Id.P8, "time to first token: the model's first delta → the client's first",
            String.format(Locale.ROOT, "%.0f ms", median), "≤ 150 ms (goal 50 ms)", median <= TTFT_TARGET_MS, detail),
        Measure.info(Measure.Id.P8, "the model's last delta → the client's result",
            String.format(Locale.ROOT, "%.0f ms", Stats.median(on.tail())),
            String.format(Locale.ROOT, "median; p90 %.0f ms; streaming off: %.0f ms", Stats.percentile(on.tail(), 90),
                Stats.median(off.tail()))),
        Measure.info(Measure.Id.P8, "P5 for these turns, streaming on / off",
            String.format(Locale.ROOT, "%.1f KB / %.1f KB", on.historyBytesPerTurn() / 1024,
                off.historyBytesPerTurn() / 1024),
            String.format(Locale.ROOT, "history bytes per turn (session + turn workflow); %.1f reply_stream signals"
                + " per turn with streaming on (CP_STREAM_REPLIES)", (double) on.signals() / (turns + 1))));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

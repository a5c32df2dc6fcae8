package cp.worker;

import cp.client.ControlPlaneClient;
import cp.gateway.LlmProvider;
import cp.tools.ToolExecutor;
import cp.model.WorkOrderIds;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.MapEntry;
import com.google.protobuf.Message;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.common.WorkflowExecutionHistory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A whole plane inside the test JVM, assembled exactly as {@code cpctl chat} assembles it:
 * {@link PlaneRuntime} on a {@link PlaneConfig} from an environment map, the embedded Temporal
 * service through {@link TemporalConnection}, a {@link PlaneWorker} and a
 * {@link ControlPlaneClient}. Evidence tests run real turns on it and then read what Temporal
 * stored.
 */
public final class PlaneFixture implements AutoCloseable {
  public final PlaneConfig config;
  public final PlaneRuntime runtime;
  public final TemporalConnection connection;
  public final PlaneWorker worker;
  public final ControlPlaneClient client;

  private PlaneFixture(PlaneConfig config, PlaneRuntime runtime, TemporalConnection connection, PlaneWorker worker) {
    this.config = config;
    this.runtime = runtime;
    this.connection = connection;
    this.worker = worker;
    this.client = new ControlPlaneClient(connection.client(), config.worker().taskQueue(),
        runtime.catalog().agentClasses(), config.worker().continueAsNewAfterTurns());
  }

  /** The environment of a test plane under {@code home}: offline, fast retries; {@code extra} wins. */
  public static Map<String, String> env(Path home, Map<String, String> extra) {
    Map<String, String> env = new HashMap<>();
    env.put("CP_HOME", home.toString());
    env.put("CP_PROVIDER", "offline");
    env.put("CP_RETRY_INITIAL_MS", "10");
    env.put("CP_RETRY_MAX_MS", "50");
    env.put("CP_LLM_MAX_ATTEMPTS", "2");
    env.putAll(extra);
    return env;
  }

  /** A plane whose provider is the one {@code env} selects (the production path). */
  public static PlaneFixture start(Map<String, String> env, Function<PlaneRuntime.Deps, ToolExecutor> tools) {
    PlaneConfig config = PlaneConfig.fromEnv(env);
    return start(config, PlaneRuntime.open(config, tools));
  }

  /** A plane whose provider is the one {@code env} selects, reporting to {@code services}' telemetry. */
  public static PlaneFixture start(Map<String, String> env, ProcessServices services,
      Function<PlaneRuntime.Deps, ToolExecutor> tools) {
    PlaneConfig config = PlaneConfig.fromEnv(env);
    PlaneRuntime runtime = PlaneRuntime.open(config, tools, services);
    TemporalConnection conn = TemporalConnection.open(config, services.telemetry());
    conn.ensureSearchAttributes();
    PlaneWorker worker = PlaneWorker.start(conn, runtime, "test");
    return new PlaneFixture(config, runtime, conn, worker);
  }

  /** A plane with an explicit provider (a scripted or offline one). */
  public static PlaneFixture start(Map<String, String> env, LlmProvider provider,
      Function<PlaneRuntime.Deps, ToolExecutor> tools) {
    PlaneConfig config = PlaneConfig.fromEnv(env);
    return start(config, PlaneRuntime.open(config, provider, tools, Clock.systemUTC()));
  }

  /** A plane with an explicit provider whose ledgers get {@code hooks} (e.g. a test's write faults). */
  public static PlaneFixture start(Map<String, String> env, LlmProvider provider,
      Function<PlaneRuntime.Deps, ToolExecutor> tools, cp.ledger.LedgerHooks hooks) {
    PlaneConfig config = PlaneConfig.fromEnv(env);
    config = config.withLedgers(config.ledgers().withHooks(hooks));
    return start(config, PlaneRuntime.open(config, provider, tools, Clock.systemUTC()));
  }

  private static PlaneFixture start(PlaneConfig config, PlaneRuntime runtime) {
    TemporalConnection conn = TemporalConnection.open(config);
    conn.ensureSearchAttributes();
    PlaneWorker worker = PlaneWorker.start(conn, runtime, "test");
    return new PlaneFixture(config, runtime, conn, worker);
  }

  /** The ids of a session's workflow and of each turn workflow it ran. */
  public List<String> workflowIds(String sessionId) {
    List<String> ids = new ArrayList<>();
    ids.add(sessionId);
    for (int n = 1; ; n++) {
      String id = WorkOrderIds.turnWorkflow(sessionId, n);
      try {
        connection.client().newUntypedWorkflowStub(id).describe();
      } catch (WorkflowNotFoundException e) {
        return ids;
      } catch (io.grpc.StatusRuntimeException e) {
        if (e.getStatus().getCode() == io.grpc.Status.Code.NOT_FOUND) {
          return ids;
        }
        throw e;
      }
      ids.add(id);
    }
  }

  /** The session's history and every turn's. */
  public List<WorkflowExecutionHistory> histories(String sessionId) {
    return workflowIds(sessionId).stream().map(id -> connection.client().fetchHistory(id)).toList();
  }

  public List<DescribeWorkflowExecutionResponse> descriptions(String sessionId) {
    return workflowIds(sessionId).stream()
        .map(id -> connection.client().newUntypedWorkflowStub(id).describe().getRawDescription()).toList();
  }

  /**
   * Every form in which a history could carry text: its JSON (as the Temporal CLI and UI export
   * it, payload data in base64), and each event's protobuf bytes, in which payload data, failure
   * messages, search attributes and memos are raw. An ASCII needle found in neither is nowhere in
   * the history.
   */
  public static List<String> surfaces(WorkflowExecutionHistory h) {
    List<String> out = new ArrayList<>();
    out.add(h.toJson(true));
    h.getEvents().forEach(e -> out.add(new String(e.toByteArray(), StandardCharsets.ISO_8859_1)));
    return out;
  }

  /** A payload somewhere in a history event, with the path of fields that leads to it. */
  public record PayloadAt(long eventId, String path, Payload payload) {
    public String encoding() {
      return payload.getMetadataOrDefault("encoding", ByteString.EMPTY).toStringUtf8();
    }
  }

  /** Every payload of every event, found by walking the protobuf messages. */
  public static List<PayloadAt> payloads(WorkflowExecutionHistory h) {
    List<PayloadAt> out = new ArrayList<>();
    for (HistoryEvent e : h.getEvents()) {
      collect(e, e.getEventType().name(), e.getEventId(), out);
    }
    return out;
  }

  private static void collect(Message m, String path, long eventId, List<PayloadAt> out) {
    if (m instanceof Payload p) {
      out.add(new PayloadAt(eventId, path, p));
      return;
    }
    for (Map.Entry<FieldDescriptor, Object> f : m.getAllFields().entrySet()) {
      String name = path + "." + f.getKey().getName();
      List<?> values = f.getKey().isRepeated() ? (List<?>) f.getValue() : List.of(f.getValue());
      for (Object v : values) {
        if (v instanceof MapEntry<?, ?> entry) {
          if (entry.getValue() instanceof Message value) {
            collect(value, name + "[" + entry.getKey() + "]", eventId, out);
          }
        } else if (v instanceof Message child) {
          collect(child, name, eventId, out);
        }
      }
    }
  }

  public static boolean mentions(WorkflowExecutionHistory h, String asciiNeedle) {
    return surfaces(h).stream().anyMatch(s -> s.contains(asciiNeedle));
  }

  @Override
  public void close() {
    worker.close();
    connection.close();
    runtime.close();
  }
}

package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.io.IOException;
import java.util.Iterator;
import java.util.Set;

/**
 * Starts (or continues as new) a SessionWorkflow. {@code carried} is null for a new session and
 * holds the state of the previous run after continue-as-new; {@code continueAsNewAfterTurns}
 * (0: the workflow's default) bounds the turns of one run.
 *
 * <p>Any client can start a session, so reading one never fails: a payload that is not
 * {@code {"session_id": string, "agent_class": string}} (a wrong type, an unknown field, not an
 * object) reads as an input whose {@link #problem} names what is wrong, and the workflow fails at
 * once with {@code start_refused} saying so. A converter failure would instead fail the
 * workflow's first task over and over, and the session's first turn would wait forever.
 *
 * @param problem what is wrong with the payload this input was read from; null when nothing is.
 *     Never written: only the reader sets it.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonDeserialize(using = SessionInput.Reader.class)
public record SessionInput(String sessionId, String agentClass, SessionState carried, int continueAsNewAfterTurns,
    @JsonIgnore Refusal.Problem problem, String tenant) {

  /** What a client sends: the input's fields as they are on the wire. */
  public static final Set<String> FIELDS = Set.of("session_id", "agent_class", "carried",
      "continue_as_new_after_turns", "tenant");

  public SessionInput(String sessionId, String agentClass, SessionState carried, int continueAsNewAfterTurns) {
    this(sessionId, agentClass, carried, continueAsNewAfterTurns, null, null);
  }

  public SessionInput(String sessionId, String agentClass, SessionState carried, int continueAsNewAfterTurns,
      Refusal.Problem problem) {
    this(sessionId, agentClass, carried, continueAsNewAfterTurns, problem, null);
  }

  /** The same input for tenant {@code tenant} (issue 23; null: {@link TenantId#DEFAULT}). */
  public SessionInput withTenant(String tenant) {
    return new SessionInput(sessionId, agentClass, carried, continueAsNewAfterTurns, problem, tenant);
  }

  /** The session's tenant: the one it was started for, else {@link TenantId#DEFAULT}. */
  public String tenantOrDefault() {
    return TenantId.orDefault(tenant);
  }

  /** Reads any JSON value; what is wrong with it goes into {@code problem}, never into an exception. */
  public static final class Reader extends JsonDeserializer<SessionInput> {
    static final String SHAPE = "{\"session_id\": string, \"agent_class\": string}";

    @Override
    public SessionInput deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
      return read(p.readValueAsTree(), p);
    }

    @Override
    public SessionInput getNullValue(DeserializationContext ctx) {
      return new SessionInput(null, null, null, 0, problem("start input is null; a session starts with " + SHAPE,
          Refusal.Code.WRONG_TYPE, null));
    }

    private static SessionInput read(JsonNode n, JsonParser p) {
      if (n == null || !n.isObject()) {
        return new SessionInput(null, null, null, 0, problem("start input must be an object " + SHAPE + "; got "
            + Refusal.kind(n), Refusal.Code.WRONG_TYPE, null));
      }
      JsonNode sid = present(n.get("session_id"));
      JsonNode cls = present(n.get("agent_class"));
      JsonNode carried = present(n.get("carried"));
      JsonNode can = present(n.get("continue_as_new_after_turns"));
      JsonNode tenant = present(n.get("tenant"));
      // The fields as the lenient reader before issue 12 read them (a number as its text), so a
      // history started then replays as it ran; only a session from contract-defence 1 on looks at
      // the problem.
      String sessionId = lenientText(sid);
      String agentClass = lenientText(cls);
      int turns = can != null && can.isIntegralNumber() && can.canConvertToInt() ? can.intValue() : 0;
      SessionState state = null;
      if (carried != null && carried.isObject()) {
        try {
          state = p.getCodec().treeToValue(carried, SessionState.class);
        } catch (IOException | RuntimeException e) {
          state = null;
        }
      }
      Refusal.Problem problem = problem(n, sid, cls, carried, state, can);
      if (problem == null && tenant != null) {
        problem = tenantProblem(tenant);
      }
      return new SessionInput(sessionId, agentClass, state, turns, problem,
          tenant != null && tenant.isTextual() ? tenant.asText() : null);
    }

    /** Issue 23: a tenant, when given, is a string and a {@link TenantId}. */
    private static Refusal.Problem tenantProblem(JsonNode tenant) {
      if (!tenant.isTextual()) {
        return problem("start input: tenant must be a string; got " + Refusal.kind(tenant), Refusal.Code.WRONG_TYPE,
            "tenant");
      }
      return TenantId.problem(tenant.asText()).map(why -> problem("start input: " + why, Refusal.Code.INVALID_TENANT,
          "tenant")).orElse(null);
    }

    /** The first thing wrong with the input {@code n}, or null. */
    private static Refusal.Problem problem(JsonNode n, JsonNode sid, JsonNode cls, JsonNode carried,
        SessionState state, JsonNode can) {
      for (Iterator<String> names = n.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!FIELDS.contains(name)) {
          return problem("start input: unknown field '" + name + "' (a session starts with " + SHAPE + ")",
              Refusal.Code.UNKNOWN_FIELD, name);
        }
      }
      if (sid != null && !sid.isTextual()) {
        return problem("start input: session_id must be a string; got " + Refusal.kind(sid), Refusal.Code.WRONG_TYPE,
            "session_id");
      }
      if (cls != null && !cls.isTextual()) {
        return problem("start input: agent_class must be a string; got " + Refusal.kind(cls),
            Refusal.Code.WRONG_TYPE, "agent_class");
      }
      if (can != null && !(can.isIntegralNumber() && can.canConvertToInt() && can.intValue() >= 0)) {
        return problem("start input: continue_as_new_after_turns must be a whole number of turns (0 or more); got "
            + (can.isNumber() ? can.asText() : Refusal.kind(can)), Refusal.Code.WRONG_TYPE,
            "continue_as_new_after_turns");
      }
      if (carried != null && (state == null || state.profile() == null)) {
        // Issue 20: a carried state without its agent's profile read as one before, and the session
        // then failed its first task for ever (a running workflow nobody could use).
        return problem("start input: carried must be the state a previous run of the session handed on (an"
            + " object with its profile); got " + (carried.isObject() ? "an object that is not one"
            : Refusal.kind(carried)) + ". A client never sends carried", Refusal.Code.WRONG_TYPE, "carried");
      }
      return null;
    }

    private static String lenientText(JsonNode v) {
      return v == null || v.isContainerNode() ? null : v.asText();
    }

    private static JsonNode present(JsonNode v) {
      return v == null || v.isNull() || v.isMissingNode() ? null : v;
    }

    private static Refusal.Problem problem(String message, Refusal.Code code, String field) {
      return new Refusal.Problem(message, Refusal.of(code, field));
    }
  }
}

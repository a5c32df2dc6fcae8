package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The input of a case as the turn saw it: the user's text, the agent class and tenant, the
 * session and turn it came from, and the versions (definition, contracts) the turn ran with. A
 * hand-written case may give only the text: its agent class is then {@value #DEFAULT_AGENT_CLASS},
 * as for {@code cpctl chat}.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record CaseInput(String text, String agentClass, String tenant, String sessionId, int turn,
                        Map<String, String> versions) {
  /** The agent class of a case that names none: the one {@code cpctl chat} talks to by default. */
  public static final String DEFAULT_AGENT_CLASS = "ADMIN";

  public CaseInput {
    Objects.requireNonNull(text, "text");
    agentClass = agentClass == null || agentClass.isBlank() ? DEFAULT_AGENT_CLASS : agentClass;
    versions = versions == null || versions.isEmpty() ? null
        : java.util.Collections.unmodifiableMap(new TreeMap<>(versions));
  }
}

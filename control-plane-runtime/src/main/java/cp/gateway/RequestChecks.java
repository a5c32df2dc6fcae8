package cp.gateway;

import cp.model.Message;
import cp.model.PromptRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** What is wrong with a request before the gateway sends it (its shape; a provider it does not have). */
final class RequestChecks {
  private RequestChecks() {}

  /** The problems of {@code r} for {@code providerId}, joined, or empty when there are none. */
  static Optional<String> problems(PromptRequest r, String providerId, Set<String> providers) {
    List<String> problems = new ArrayList<>();
    if (r.contractId().isBlank()) {
      problems.add("contract_id is blank");
    }
    if (r.sessionId().isBlank()) {
      problems.add("session_id is blank");
    }
    if (r.messages().isEmpty()) {
      problems.add("messages is empty");
    } else if (!Message.USER.equals(r.messages().get(0).role())) {
      problems.add("the first message must be from the user");
    }
    if (r.maxTokens() < 1) {
      problems.add("max_tokens must be >= 1, was " + r.maxTokens());
    }
    if (r.temperature() < 0 || r.temperature() > Gateway.MAX_TEMPERATURE) {
      problems.add("temperature must be within 0.." + Gateway.MAX_TEMPERATURE + ", was " + r.temperature());
    }
    if (!providers.contains(providerId)) {
      problems.add("provider '" + providerId + "' is not configured (configured: " + providers + ")");
    }
    return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
  }
}

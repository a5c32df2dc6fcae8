package cp.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.AgentProfile;
import cp.model.AttentionResult;
import cp.model.Json;
import java.util.List;

/**
 * The input_context of a synthesize work order: the user's message, the classification, a
 * reference to the assembled context (never its text) and the acceptance criteria, plus the
 * quality gate's reasons on a retry. Pure code: the turn workflow and the benchmark's plain
 * loop build it the same way.
 */
public final class SynthesizeInput {
  private SynthesizeInput() {}

  public static ObjectNode of(String userMessage, JsonNode classification, AttentionResult ctx, List<String> feedback,
      AgentProfile p) {
    ObjectNode input = Json.object().put("user_input", userMessage);
    input.putArray("prior_results").add(classification);
    input.set("classification", classification);
    ObjectNode assembled = input.putObject("assembled_context");
    assembled.put("context_ref", ctx.contextRef());
    assembled.put("context_hash", ctx.contextHash());
    assembled.put("fragment_count", ctx.fragmentCount());
    ObjectNode criteria = input.putObject("acceptance_criteria");
    criteria.put("must_include_response_text", true);
    criteria.put("max_response_chars", p.maxResponseChars());
    if (!feedback.isEmpty()) {
      input.set("retry_feedback", Json.tree(feedback));
    }
    return input;
  }

  /** What HO2 goes on with when the classify work order did not complete. */
  public static ObjectNode unknownClassification() {
    return Json.object().put("speech_act", "question").put("ambiguity", "high").put("classification_failed", true);
  }
}

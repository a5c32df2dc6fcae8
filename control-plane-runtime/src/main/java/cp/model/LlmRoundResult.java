package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one round trip produced, small enough for workflow history. Exactly one of:
 * <ul>
 *   <li>{@link Answered}: the model answered without tools; the workflow finishes the work order
 *       (the pre-{@code lean-turn} protocol, and the session's degraded call);</li>
 *   <li>{@link ToolCalls}: the model asked for tools;</li>
 *   <li>{@link Finished}: the round ended the work order itself and says how (the current
 *       protocol: an answer, a refusal, or input that could not be prepared);</li>
 *   <li>{@link Refused}: the gateway refused to send (e.g. budget_exhausted) and nothing was finished.</li>
 * </ul>
 *
 * <p>Written with a {@code kind} discriminator. {@link Reader} also reads the shape recorded
 * before the kinds existed (one record with nullable {@code rejected_code}, {@code prompt_ref}
 * and {@code finished}), because committed workflow histories hold it as activity results.
 */
@JsonDeserialize(using = LlmRoundResult.Reader.class)
public sealed interface LlmRoundResult
    permits LlmRoundResult.Answered, LlmRoundResult.ToolCalls, LlmRoundResult.Finished, LlmRoundResult.Refused {

  /** The discriminator written with every result. */
  @JsonProperty("kind")
  String kind();

  /** The provider exchange behind a round: its HOT entry, tokens, cost and model. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Exchange(String entryId, long inputTokens, long outputTokens, double cost, String modelId, boolean replayed,
      String finishReason, Boolean costUnknown) {
    @com.fasterxml.jackson.annotation.JsonCreator
    public Exchange {
      Objects.requireNonNull(entryId, "entry_id");
    }

    /** An exchange whose cost is known (results recorded before {@code cost_unknown} read as this). */
    public Exchange(String entryId, long inputTokens, long outputTokens, double cost, String modelId, boolean replayed,
        String finishReason) {
      this(entryId, inputTokens, outputTokens, cost, modelId, replayed, finishReason, null);
    }

    /** What this exchange costs a work order (an unpriced model's call counted as such). */
    public WoCost woCost() {
      WoCost c = WoCost.llmCall(inputTokens, outputTokens, cost);
      return Boolean.TRUE.equals(costUnknown) ? c.withUnpricedCalls(1) : c;
    }
  }

  /** The model answered without tools; the caller finishes the work order with {@code text}. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonDeserialize(using = JsonDeserializer.None.class)
  record Answered(Exchange exchange, String text) implements LlmRoundResult {
    public static final String KIND = "answered";

    public Answered {
      Objects.requireNonNull(exchange, "exchange");
    }

    @Override
    @JsonProperty("kind")
    public String kind() {
      return KIND;
    }
  }

  /**
   * The model asked for tools. {@code preparedPrompt}: the WO_EXECUTING entry this round wrote
   * when it also prepared the work order (round 1 of the current protocol), for the rounds after it.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_ABSENT)
  @JsonDeserialize(using = JsonDeserializer.None.class)
  record ToolCalls(Exchange exchange, List<ToolUse> toolUses, Optional<String> preparedPrompt)
      implements LlmRoundResult {
    public static final String KIND = "tool_calls";

    public ToolCalls {
      Objects.requireNonNull(exchange, "exchange");
      toolUses = toolUses == null ? List.of() : List.copyOf(toolUses);
      if (toolUses.isEmpty()) {
        throw new IllegalArgumentException("tool_calls needs at least one tool use (exchange " + exchange.entryId()
            + ")");
      }
      preparedPrompt = preparedPrompt == null ? Optional.empty() : preparedPrompt;
    }

    @Override
    @JsonProperty("kind")
    public String kind() {
      return KIND;
    }
  }

  /**
   * The round ended the work order and wrote its WO_COMPLETED or WO_FAILED. {@code answer} is the
   * exchange whose {@code text} was the final answer; empty when the work order ended without one
   * (the gateway refused, or the input could not be prepared).
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_ABSENT)
  @JsonDeserialize(using = JsonDeserializer.None.class)
  record Finished(WoOutcome outcome, Optional<Exchange> answer, String text) implements LlmRoundResult {
    public static final String KIND = "finished";

    public Finished {
      Objects.requireNonNull(outcome, "outcome");
      answer = answer == null ? Optional.empty() : answer;
      if (answer.isEmpty()) {
        text = null;
      }
    }

    @Override
    @JsonProperty("kind")
    public String kind() {
      return KIND;
    }
  }

  /**
   * The gateway refused to send; {@code code} is its error code (e.g. budget_exhausted), {@code refusal}
   * which budget refused it (absent in results recorded before it existed: {@link #refusalKind()}).
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonDeserialize(using = JsonDeserializer.None.class)
  record Refused(String code, String message, String exchangeEntryId, String modelId, RefusalKind refusal)
      implements LlmRoundResult {
    public static final String KIND = "refused";

    @com.fasterxml.jackson.annotation.JsonCreator
    public Refused {
      Objects.requireNonNull(code, "code");
    }

    public Refused(String code, String message, String exchangeEntryId, String modelId) {
      this(code, message, exchangeEntryId, modelId, null);
    }

    /** Which budget refused the call: as recorded, else from the message's words ({@link RefusalKind#fromText}). */
    public RefusalKind refusalKind() {
      return RefusalKind.orFromText(refusal, message);
    }

    @Override
    @JsonProperty("kind")
    public String kind() {
      return KIND;
    }
  }

  /** Reads any kind by its discriminator, and the shape recorded before the kinds (see the class comment). */
  final class Reader extends JsonDeserializer<LlmRoundResult> {
    @Override
    public LlmRoundResult deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      ObjectMapper mapper = (ObjectMapper) p.getCodec();
      JsonNode node = mapper.readTree(p);
      if (!node.isObject()) {
        throw ctxt.weirdStringException(node.toString(), LlmRoundResult.class, "a round result must be an object");
      }
      JsonNode kind = node.get("kind");
      if (kind != null) {
        Class<? extends LlmRoundResult> type = switch (kind.asText()) {
          case Answered.KIND -> Answered.class;
          case ToolCalls.KIND -> ToolCalls.class;
          case Finished.KIND -> Finished.class;
          case Refused.KIND -> Refused.class;
          default -> throw ctxt.weirdStringException(kind.asText(), LlmRoundResult.class, "unknown round result kind '"
              + kind.asText() + "' (expected " + Answered.KIND + ", " + ToolCalls.KIND + ", " + Finished.KIND + " or "
              + Refused.KIND + ")");
        };
        return mapper.treeToValue(node, type);
      }
      return legacy((ObjectNode) node, mapper);
    }

    /** The one-record shape written before the kinds (histories recorded before this change hold it). */
    private static LlmRoundResult legacy(ObjectNode n, ObjectMapper mapper) throws IOException {
      String entryId = text(n, "exchange_entry_id");
      String rejected = text(n, "rejected_code");
      JsonNode finished = n.get("finished");
      if (finished != null && !finished.isNull()) {
        WoOutcome outcome = mapper.treeToValue(finished, WoOutcome.class);
        boolean answered = rejected == null && entryId != null;
        return new Finished(outcome, answered ? Optional.of(exchange(n)) : Optional.empty(),
            answered ? text(n, "text") : null);
      }
      if (rejected != null) {
        return new Refused(rejected, text(n, "rejected_message"), entryId, text(n, "model_id"));
      }
      List<ToolUse> uses = new ArrayList<>();
      for (JsonNode u : n.path("tool_uses")) {
        uses.add(mapper.treeToValue(u, ToolUse.class));
      }
      if (!uses.isEmpty()) {
        return new ToolCalls(exchange(n), uses, Optional.ofNullable(text(n, "prompt_ref")));
      }
      return new Answered(exchange(n), text(n, "text"));
    }

    private static Exchange exchange(JsonNode n) {
      return new Exchange(text(n, "exchange_entry_id"), n.path("input_tokens").asLong(),
          n.path("output_tokens").asLong(), n.path("cost").asDouble(), text(n, "model_id"),
          n.path("replayed").asBoolean(), text(n, "finish_reason"));
    }

    private static String text(JsonNode n, String field) {
      JsonNode v = n.get(field);
      return v == null || v.isNull() ? null : v.asText();
    }
  }
}

package cp.e2e;

import cp.gateway.LlmProvider;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.PromptRequest;
import cp.model.ContractIds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Function;

/**
 * A model for whole-session tests: classify always answers a plain question; synthesize answers
 * from a script (then repeats its last step for ever, if told to), so a test decides what the
 * model writes where it matters. Records every synthesize request.
 */
final class ScriptedModel implements LlmProvider {
  static final String ID = "scripted";
  static final String MODEL = "scripted-model-1";
  static final long INPUT_TOKENS = 100;
  static final long OUTPUT_TOKENS = 20;

  final List<PromptRequest> synthesizeRequests = Collections.synchronizedList(new ArrayList<>());
  private final ConcurrentLinkedDeque<Function<PromptRequest, ProviderReply>> script = new ConcurrentLinkedDeque<>();
  private volatile Function<PromptRequest, ProviderReply> forever;
  private volatile int classifyCalls;

  /** Forgets the script and the requests. */
  void reset() {
    script.clear();
    forever = null;
    synthesizeRequests.clear();
    classifyCalls = 0;
  }

  /** The next synthesize calls answer these, in order. */
  @SafeVarargs
  final ScriptedModel synthesize(Function<PromptRequest, ProviderReply>... steps) {
    script.addAll(List.of(steps));
    return this;
  }

  /** Once the script is spent, every synthesize call answers this. */
  ScriptedModel thenForever(Function<PromptRequest, ProviderReply> step) {
    forever = step;
    return this;
  }

  int classifyCalls() {
    return classifyCalls;
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ProviderReply send(PromptRequest r) throws ProviderException {
    if (ContractIds.CLASSIFY.equals(r.contractId())) {
      classifyCalls++;
      return text("{\"speech_act\":\"question\",\"ambiguity\":\"low\"}");
    }
    if (ContractIds.SYNTHESIZE.equals(r.contractId())) {
      synthesizeRequests.add(r);
      Function<PromptRequest, ProviderReply> step = script.poll();
      if (step == null) {
        step = forever;
      }
      if (step != null) {
        return step.apply(r);
      }
    }
    throw ProviderException.builder(ID, ProviderErrorKind.BAD_REQUEST)
        .message("the test script has no answer for " + r.contractId()).build();
  }

  static ProviderReply text(String text) {
    return new ProviderReply(List.of(ContentBlock.text(text)), INPUT_TOKENS, OUTPUT_TOKENS, MODEL, ProviderReply.STOP);
  }

  static Function<PromptRequest, ProviderReply> says(String text) {
    return r -> text(text);
  }

  static Function<PromptRequest, ProviderReply> answers(String responseText) {
    return says(Json.object().put("response_text", responseText).toString());
  }

  static Function<PromptRequest, ProviderReply> callsTool(String tool, String argsJson) {
    return r -> new ProviderReply(List.of(ContentBlock.toolUse("toolu_" + r.messages().size(), tool,
        Json.parse(argsJson))), INPUT_TOKENS, OUTPUT_TOKENS, MODEL, ProviderReply.TOOL_USE);
  }
}

package cp.gateway;

import cp.model.PromptRequest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A provider for gateway tests that answers from a script: each call takes the next scripted
 * reply or failure, in order, and remembers the request it was sent. A call beyond the script
 * fails the test with an {@link AssertionError} (an Error, so the gateway cannot swallow it as
 * a provider failure), which makes "the provider was never called" a checked claim.
 */
final class ScriptedProvider implements LlmProvider {
  /** One scripted turn: exactly one of a reply, a classified failure or a crash. */
  private record Step(ProviderReply reply, ProviderException failure, RuntimeException crash) {}

  private final String id;
  private final Deque<Step> script = new ArrayDeque<>();
  private final List<PromptRequest> received = new ArrayList<>();
  private Runnable duringCall = () -> { };

  ScriptedProvider(String id) {
    this.id = id;
  }

  /** The next call returns {@code reply}. */
  ScriptedProvider answers(ProviderReply reply) {
    script.add(new Step(reply, null, null));
    return this;
  }

  /** The next call throws {@code error}, as a real provider reports a classified failure. */
  ScriptedProvider fails(ProviderException error) {
    script.add(new Step(null, error, null));
    return this;
  }

  /** The next call throws an unclassified runtime exception (a provider bug). */
  ScriptedProvider crashes(RuntimeException error) {
    script.add(new Step(null, null, error));
    return this;
  }

  /** Runs {@code action} inside every call, e.g. to move a test clock by the call's duration. */
  ScriptedProvider duringEachCall(Runnable action) {
    this.duringCall = action;
    return this;
  }

  int calls() {
    return received.size();
  }

  PromptRequest lastRequest() {
    if (received.isEmpty()) {
      throw new AssertionError("provider " + id + " was never called");
    }
    return received.get(received.size() - 1);
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public ProviderReply send(PromptRequest request) throws ProviderException {
    received.add(request);
    duringCall.run();
    Step step = script.poll();
    if (step == null) {
      throw new AssertionError("provider " + id + " called " + received.size()
          + " times but only " + (received.size() - 1) + " replies were scripted");
    }
    if (step.failure() != null) {
      throw step.failure();
    }
    if (step.crash() != null) {
      throw step.crash();
    }
    return step.reply();
  }
}

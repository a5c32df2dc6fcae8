package cp.gateway;

import cp.model.PromptRequest;

/**
 * A provider that passes every call to another one: the base of decorators that watch, hold or
 * interrupt calls (benchmarks, tests) while the delegate does the work. Subclasses override
 * {@link #send} and call {@code super.send} to forward.
 */
public abstract class ForwardingProvider implements LlmProvider {
  protected final LlmProvider delegate;

  protected ForwardingProvider(LlmProvider delegate) {
    this.delegate = delegate;
  }

  @Override
  public String id() {
    return delegate.id();
  }

  @Override
  public java.util.Optional<String> defaultModel() {
    return delegate.defaultModel();
  }

  @Override
  public ProviderReply send(PromptRequest request) throws ProviderException {
    return delegate.send(request);
  }
}

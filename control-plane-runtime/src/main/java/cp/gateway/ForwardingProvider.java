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

  /**
   * Through {@link #send}, as one piece, so a subclass that watches or holds calls in {@code send}
   * sees streamed calls too; a decorator that changes nothing about a call overrides this with
   * {@link #streamThrough}.
   */
  @Override
  public ProviderReply stream(PromptRequest request, StreamSink sink) throws ProviderException {
    return LlmProvider.super.stream(request, sink);
  }

  /** Streams the call through the delegate as it streams. */
  protected final ProviderReply streamThrough(PromptRequest request, StreamSink sink) throws ProviderException {
    return delegate.stream(request, sink);
  }
}

package cp.bench;

import cp.gateway.ForwardingProvider;
import cp.gateway.LlmProvider;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.model.PromptRequest;
import java.util.ArrayList;
import java.util.List;

/** Passes every request to the real provider and keeps the last few, so a loop can send them again. */
final class RecordingProvider extends ForwardingProvider {
  /** Enough for the last turn of any benchmark shape (classify, tool round, answer). */
  static final int KEPT = 8;

  private final List<PromptRequest> recent = new ArrayList<>();

  RecordingProvider(LlmProvider delegate) {
    super(delegate);
  }


  @Override
  public ProviderReply send(PromptRequest request) throws ProviderException {
    synchronized (recent) {
      recent.add(request);
      if (recent.size() > KEPT) {
        recent.remove(0);
      }
    }
    return super.send(request);
  }

  /** The last {@code n} requests, oldest first. */
  List<PromptRequest> last(int n) {
    synchronized (recent) {
      return List.copyOf(recent.subList(Math.max(0, recent.size() - n), recent.size()));
    }
  }

  LlmProvider delegate() {
    return delegate;
  }
}

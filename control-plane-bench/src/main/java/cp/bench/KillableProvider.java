package cp.bench;

import cp.gateway.ForwardingProvider;
import cp.gateway.LlmProvider;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.model.PromptRequest;
import java.util.concurrent.CountDownLatch;

/**
 * The provider of a worker that is about to die: the first synthesize request it receives
 * signals {@link #inCall}, waits for {@link #kill()}, and then its thread dies as a killed
 * process's would, writing nothing (an Error passes every catch on the way up).
 */
final class KillableProvider extends ForwardingProvider {
  final CountDownLatch inCall = new CountDownLatch(1);
  private final CountDownLatch killed = new CountDownLatch(1);

  /** What the thread of a dead process does next: nothing. */
  static final class ProcessDied extends Error {
    private static final long serialVersionUID = 1L;

    ProcessDied() {
      super("the worker's process died during this call (benchmark)", null, false, false);
    }
  }

  KillableProvider(LlmProvider delegate) {
    super(delegate);
  }


  @Override
  public ProviderReply send(PromptRequest request) throws ProviderException {
    if (request.system().contains(FakeReplies.SYNTHESIZE_MARK) && inCall.getCount() > 0) {
      inCall.countDown();
      awaitKill();
      throw new ProcessDied();
    }
    return super.send(request);
  }

  void kill() {
    killed.countDown();
  }

  private void awaitKill() {
    boolean interrupted = false;
    while (true) {
      try {
        killed.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}

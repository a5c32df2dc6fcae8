package cp.gateway;
/** STUB replaced by the offline branch. */
public final class CircuitBreaker {
  public enum State { CLOSED, OPEN, HALF_OPEN }
  public boolean tryAcquire() { return true; }
  public void onSuccess() {}
  public void onFailure() {}
  public State state() { return State.CLOSED; }
  public java.time.Duration remainingCooldown() { return java.time.Duration.ZERO; }
}

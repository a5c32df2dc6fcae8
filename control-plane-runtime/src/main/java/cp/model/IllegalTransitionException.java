package cp.model;

/** A work order was asked to move between two states the lifecycle does not connect. */
public final class IllegalTransitionException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public IllegalTransitionException(String woId, WoState from, WoState to) {
    super("work order " + woId + ": illegal transition " + from.wireName() + " -> " + to.wireName()
        + " (allowed from " + from.wireName() + ": " + from.allowedNext().stream().map(WoState::wireName).sorted().toList() + ")");
  }
}
